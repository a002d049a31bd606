import type { ErrorCode } from "../protocol/wire";
import { LiveError } from "./client";

/** The wire's code of a failed request; anything else (a bug, a lost tab) is "internal". */
export function codeOf(error: unknown): ErrorCode {
  return error instanceof LiveError ? error.wire.code : "internal";
}
