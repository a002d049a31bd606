import { useCallback, useState } from "react";
import type { ErrorCode, WireError } from "../protocol/wire";
import { placeError, withFound, withoutEdited, type PlacedError } from "./fieldErrors";
import { useEditedFields } from "./useEditedFields";

export type FieldErrors<F extends string> = PlacedError<F> & {
  /** The user changed these fields: what was said of their old values goes from beside them. */
  edited: (...fields: F[]) => void;
  /**
   * A press was answered: the form's own findings show with the server's answer, beside every
   * field again. A press starts with `found({})`, so nothing stale stands while it is sent.
   */
  found: (errors: Partial<Record<F, ErrorCode>>) => void;
};

/**
 * The errors a form shows beside its fields: its own findings over the server's answer
 * (placed as `placeError` places it), less those of fields edited since the press.
 */
export function useFieldErrors<F extends string>(
  error: WireError | null,
  known: readonly F[],
  byCode: Partial<Record<ErrorCode, F>> = {},
): FieldErrors<F> {
  const [own, setOwn] = useState<Partial<Record<F, ErrorCode>>>({});
  const { edited, markEdited, clearEdited } = useEditedFields<F>();
  const shown = withoutEdited(withFound(placeError(error, known, byCode), own), edited);
  const markAll = useCallback((...fields: F[]) => fields.forEach(markEdited), [markEdited]);
  const found = useCallback(
    (errors: Partial<Record<F, ErrorCode>>) => {
      setOwn(errors);
      clearEdited();
    },
    [clearEdited],
  );
  return { ...shown, edited: markAll, found };
}
