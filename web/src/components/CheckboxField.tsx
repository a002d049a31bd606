import { useId, type ReactNode } from "react";
import "./checkboxField.css";

type CheckboxFieldProps = {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: ReactNode;
  error?: string;
  disabled?: boolean;
  testId?: string;
};

/** A labelled checkbox with an optional hint or error under it. */
export function CheckboxField({ label, checked, onChange, hint, error, disabled, testId }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className={error ? "field field-invalid checkbox-field" : "field checkbox-field"}>
      <label className="checkbox-label" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          className="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          data-testid={testId}
        />
        <span>{label}</span>
      </label>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
