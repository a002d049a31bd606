import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";

/** The fields left blank (spaces alone count as blank), in the order given. */
export function blankFields<F extends string>(values: Partial<Record<F, string>>): F[] {
  return (Object.keys(values) as F[]).filter((field) => (values[field] ?? "").trim() === "");
}

export type RequiredFields<F extends string> = {
  /** Marks the blank ones of the fields given and focuses the first; true when all are filled in. */
  allFilled: (form: HTMLFormElement, values: Partial<Record<F, string>>) => boolean;
  /** "This field is required." while the field is marked, else undefined. */
  errorFor: (field: F) => string | undefined;
  /** Takes the mark off once the user types into the field. */
  filledIn: (field: F) => void;
  /** A required input's props for the field: required, its message, and unmarking on input. */
  inputFor: (field: F) => { required: true; error: string | undefined; onChange: () => void };
};

/**
 * A blank sign-in or recovery form is refused here, beside each empty field: sent to the
 * server it would come back as a wrong password and count towards the sign-in lockout.
 */
export function useRequiredFields<F extends string>(): RequiredFields<F> {
  const { t } = useTranslation();
  const [blank, setBlank] = useState<F[]>([]);

  const allFilled = useCallback((form: HTMLFormElement, values: Partial<Record<F, string>>) => {
    const missing = blankFields(values);
    setBlank(missing);
    if (missing.length === 0) return true;
    const first = form.elements.namedItem(missing[0]);
    if (first instanceof HTMLElement) first.focus();
    return false;
  }, []);

  const errorFor = useCallback((field: F) => (blank.includes(field) ? t("errors.required") : undefined), [blank, t]);

  const filledIn = useCallback(
    (field: F) => setBlank((current) => (current.includes(field) ? current.filter((name) => name !== field) : current)),
    [],
  );

  const inputFor = useCallback(
    (field: F) => ({ required: true as const, error: errorFor(field), onChange: () => filledIn(field) }),
    [errorFor, filledIn],
  );

  return { allFilled, errorFor, filledIn, inputFor };
}
