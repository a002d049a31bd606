import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { SelectField, TextField } from "../../components/Field";
import { LiveError } from "../../live/client";
import type { CustomerInput, WireError } from "../../protocol/wire";
import { errorsByField, ID_TYPES, inputFrom, type CustomerDraft, type CustomerField } from "./fields";

type CustomerFormProps = {
  initial: CustomerDraft;
  submitLabel: string;
  onSubmit: (input: CustomerInput) => Promise<void>;
  onCancel: () => void;
};

type TextFieldSpec = { field: Exclude<CustomerField, "idType">; type?: string; autoComplete?: string; inputMode?: "tel" | "numeric" | "email" };

const CONTACT: TextFieldSpec[] = [
  { field: "name", autoComplete: "off" },
  { field: "email", type: "email", inputMode: "email", autoComplete: "off" },
  { field: "cellphone", type: "tel", inputMode: "tel", autoComplete: "off" },
  { field: "reference", autoComplete: "off" },
];
const ADDRESS: TextFieldSpec[] = [
  { field: "addressLine1" },
  { field: "addressLine2" },
  { field: "city" },
  { field: "postalCode", inputMode: "numeric" },
];

export function CustomerForm({ initial, submitLabel, onSubmit, onCancel }: CustomerFormProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<WireError | null>(null);
  const [busy, setBusy] = useState(false);
  // The message for the whole error shows in the global notice; fields show their own here.
  const fieldErrors = errorsByField(error?.fields);

  const set = (field: CustomerField) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit(inputFrom(draft));
    } catch (failure) {
      setError(failure instanceof LiveError ? failure.wire : { code: "internal" });
    } finally {
      setBusy(false);
    }
  }

  const text = ({ field, ...rest }: TextFieldSpec) => (
    <TextField
      key={field}
      name={field}
      label={t(`customers.fields.${field}`)}
      value={draft[field]}
      onChange={(event) => set(field)(event.target.value)}
      error={fieldErrors[field] ? t(`errors.${fieldErrors[field]}`) : undefined}
      data-testid={`customer-${field}`}
      {...rest}
    />
  );

  return (
    <form className="form" onSubmit={submit} noValidate data-testid="customer-form">
      <fieldset className="form-section">
        <legend>{t("customers.sections.contact")}</legend>
        <div className="form-grid">{CONTACT.map(text)}</div>
      </fieldset>
      <fieldset className="form-section">
        <legend>{t("customers.sections.identity")}</legend>
        <div className="form-grid">
          <SelectField
            name="idType"
            label={t("customers.fields.idType")}
            value={draft.idType}
            onChange={(event) => set("idType")(event.target.value)}
            error={fieldErrors.idType ? t(`errors.${fieldErrors.idType}`) : undefined}
            data-testid="customer-idType"
            options={[
              { value: "", label: t("customers.idTypes.none") },
              ...ID_TYPES.map((type) => ({ value: type, label: t(`customers.idTypes.${type}`) })),
            ]}
          />
          {text({ field: "idNumber", autoComplete: "off" })}
        </div>
      </fieldset>
      <fieldset className="form-section">
        <legend>{t("customers.sections.address")}</legend>
        <div className="form-grid">{ADDRESS.map(text)}</div>
      </fieldset>
      <div className="form-actions">
        <Button onClick={onCancel} disabled={busy}>
          {t("customers.cancel")}
        </Button>
        <Button type="submit" variant="primary" busy={busy} needs="customers:write" data-testid="customer-submit">
          {busy ? t("customers.saving") : submitLabel}
        </Button>
      </div>
    </form>
  );
}
