import { useCallback, useState } from "react";

/**
 * The fields typed in since the server last answered a form: an error the server placed
 * beside one of them was about its old value and no longer fits (see `withoutEdited`).
 */
export function useEditedFields<F extends string>(): {
  edited: F[];
  markEdited: (field: F) => void;
  clearEdited: () => void;
} {
  const [edited, setEdited] = useState<F[]>([]);
  const markEdited = useCallback((field: F) => setEdited((current) => (current.includes(field) ? current : [...current, field])), []);
  const clearEdited = useCallback(() => setEdited([]), []);
  return { edited, markEdited, clearEdited };
}
