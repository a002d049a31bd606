import { useTranslation } from "react-i18next";
import type { Need } from "../live/access";
import type { WireError } from "../protocol/wire";
import { Button, type ButtonVariant } from "./Button";
import { Dialog } from "./Dialog";
import { ErrorAlert } from "./ErrorAlert";

type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
  busy: boolean;
  /** The server's refusal, shown inside the dialog so the merchant sees why. */
  error: WireError | null;
  variant?: ButtonVariant;
  testId?: string;
  /** What the member's role must allow to confirm (see `Dialog`). */
  needs?: Need;
};

/** Asks before an action that changes money flows; the server's answer stays in view. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, onOpenChange, title, body, confirmLabel, onConfirm, busy, error, variant = "primary", testId = "confirm-dialog", needs } = props;
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} size="sm" title={title} description={body} closeLabel={t("common.close")} testId={testId} needs={needs}>
      <ErrorAlert code={error?.code} />
      <div className="form-actions">
        <Button onClick={() => onOpenChange(false)} disabled={busy}>
          {t("collections.keep")}
        </Button>
        <Button variant={variant} onClick={onConfirm} busy={busy} needs={needs} data-testid="confirm-action">
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
