import type { ErrorCode } from "../protocol/wire";
import { LiveError } from "./client";

/** The wire's code of a failed request; anything else (a bug, a lost tab) is "internal". */
export function codeOf(error: unknown): ErrorCode {
  return error instanceof LiveError ? error.wire.code : "internal";
}

/**
 * What a screen says of a read that failed: the first field's code when the server named the
 * fields at fault (a statement's period that is too long), else the request's. A read has no
 * field on screen to mark, so "some fields need your attention" would point at nothing.
 */
export function readCodeOf(error: unknown): ErrorCode {
  const fields = error instanceof LiveError ? error.wire.fields : undefined;
  return fields?.[0]?.code ?? codeOf(error);
}
