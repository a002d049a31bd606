import type { Need } from "../live/access";
import type { ErrorCode } from "../protocol/wire";
import { Alert } from "./Alert";
import { useErrorText } from "./useMay";

/**
 * A command's error in the form that sent it. A refusal by role says which role and what it
 * lacks: `needs` when given, else what the dialog or locked form around it needs.
 */
export function ErrorAlert({ code, needs }: { code: ErrorCode | null | undefined; needs?: Need }) {
  const text = useErrorText(needs);
  return code ? <Alert>{text(code)}</Alert> : null;
}
