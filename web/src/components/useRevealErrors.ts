import { useCallback, useEffect, useRef, useState } from "react";
import { revealFirstError } from "./revealFirstError";

/**
 * A form that brings its first error into view after every refused press (the same error again
 * too): put `form` on the form, and call `refused()` once the press's errors are set.
 */
export function useRevealErrors() {
  const form = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) revealFirstError(form.current);
  }, [refusals]);
  const refused = useCallback(() => setRefusals((count) => count + 1), []);
  return { form, refused };
}
