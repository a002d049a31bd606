import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { CheckboxField } from "../../components/CheckboxField";
import { Dialog } from "../../components/Dialog";
import { SelectField, TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { INTERVALS } from "../../components/intervals";
import { useCommand } from "../../live/useCommand";
import type { Customer, ErrorCode, Language } from "../../protocol/wire";
import { CustomerPicker } from "../../components/CustomerPicker";
import { Segmented } from "../../components/Segmented";
import { useRevealErrors } from "../../components/useRevealErrors";
import { CHANGEABLE, E_MANDATE_FIELDS, E_MANDATE_METHODS, eMandateInputFrom, emptyEMandateDraft, type EMandateDraft, type EMandateErrors, type EMandateField } from "./eMandateForm";
import { ErrorAlert } from "../../components/ErrorAlert";

type RequestEMandateDialogProps = { open: boolean; onOpenChange: (open: boolean) => void };

// Codes that are about one field even when the server names none.
const BY_CODE: Partial<Record<ErrorCode, EMandateField>> = {
  method_not_for_e_mandate: "method",
  method_not_enabled: "method",
  not_found: "customerId",
};

/** Asks a payer to sign a DebiCheck or Registered Mandate themselves, through a mailed link. */
export function RequestEMandateDialog({ open, onOpenChange }: RequestEMandateDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("eMandates.form.title")}
      description={t("eMandates.form.description")}
      closeLabel={t("common.close")}
      testId="e-mandate-dialog"
      needs="mandates:write"
    >
      <RequestForm onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function RequestForm({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const request = useCommand();
  const [draft, setDraft] = useState<EMandateDraft>(() => emptyEMandateDraft(i18n.language === "afr" ? "afr" : "en"));
  const [customer, setCustomer] = useState<Customer | null>(null);
  const [local, setLocal] = useState<EMandateErrors>({});
  // After a refused press, the first field in error takes the cursor (and scrolls into view).
  const { form, refused } = useRevealErrors();
  const placed = placeError(request.error, E_MANDATE_FIELDS, BY_CODE);
  const errors: EMandateErrors = { ...placed.fields, ...local };
  const errorOf = (field: EMandateField) => (errors[field] ? t(`errors.${errors[field]}`) : undefined);
  const change = (patch: Partial<EMandateDraft>) => setDraft((current) => ({ ...current, ...patch }));

  function chooseCustomer(chosen: Customer | null) {
    setCustomer(chosen);
    change({ customerId: chosen?.id ?? "" });
  }

  function toggle(term: (typeof CHANGEABLE)[number], on: boolean) {
    setDraft((current) => ({
      ...current,
      payerMayChange: on ? [...current.payerMayChange, term] : current.payerMayChange.filter((known) => known !== term),
    }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    request.clearError();
    const built = eMandateInputFrom(draft);
    setLocal(built.errors);
    if (!built.input) return refused();
    const reply = await request.run({ t: "RequestEMandate", input: built.input });
    if (reply?.t === "Committed") onDone();
    else refused();
  }

  return (
    <form ref={form} className="form e-mandate-form" onSubmit={submit} noValidate data-testid="e-mandate-form">
      {placed.general ? <ErrorAlert code={placed.general} /> : null}
      <fieldset className="form-fieldset" disabled={request.busy}>
        <fieldset className="form-section">
          <legend>{t("eMandates.form.payerSection")}</legend>
          <Segmented
            label={t("eMandates.form.payer")}
            value={draft.payer}
            options={[
              { value: "customer", label: t("eMandates.form.payerCustomer") },
              { value: "new", label: t("eMandates.form.payerNew") },
            ]}
            onChange={(payer) => change({ payer })}
            testId="e-mandate-payer"
          />
          {draft.payer === "customer" ? (
            <>
              <CustomerPicker customer={customer} onChoose={chooseCustomer} error={errorOf("customerId")} />
              {customer && errors.email ? <Alert testId="e-mandate-customer-email">{t("eMandates.form.customerNeedsEmail", { name: customer.name, reason: errorOf("email") })}</Alert> : null}
            </>
          ) : (
            <div className="form-grid">
              <TextField label={t("eMandates.form.name")} value={draft.name} onChange={(event) => change({ name: event.target.value })} error={errorOf("name")} autoComplete="off" required data-testid="e-mandate-name" />
              <TextField label={t("eMandates.form.email")} type="email" value={draft.email} onChange={(event) => change({ email: event.target.value })} error={errorOf("email")} autoComplete="off" required data-testid="e-mandate-email" />
              <TextField
                label={t("eMandates.form.cellphone")}
                type="tel"
                value={draft.cellphone}
                onChange={(event) => change({ cellphone: event.target.value })}
                error={errorOf("cellphone")}
                hint={t("eMandates.form.cellphoneHint")}
                autoComplete="off"
                data-testid="e-mandate-cellphone"
              />
            </div>
          )}
          <SelectField
            label={t("eMandates.form.language")}
            value={draft.language}
            onChange={(event) => change({ language: event.target.value as Language })}
            options={[
              { value: "en", label: t("eMandates.language.en") },
              { value: "afr", label: t("eMandates.language.afr") },
            ]}
            data-testid="e-mandate-language"
          />
        </fieldset>
        <fieldset className="form-section">
          <legend>{t("eMandates.form.termsSection")}</legend>
          <Segmented
            label={t("eMandates.form.method")}
            value={draft.method}
            options={E_MANDATE_METHODS.map((method) => ({ value: method, label: t(`collections.method.${method}`) }))}
            onChange={(method) => change({ method })}
            testId="e-mandate-method"
          />
          {errors.method ? (
            <p className="field-error" role="alert" data-testid="e-mandate-method-error">
              {errorOf("method")}
            </p>
          ) : null}
          <div className="form-grid">
            <TextField label={t("eMandates.form.amount")} value={draft.amount} onChange={(event) => change({ amount: event.target.value })} error={errorOf("amountCents")} inputMode="decimal" placeholder="0.00" required data-testid="e-mandate-amount" />
            <TextField
              label={t("eMandates.form.maximum")}
              value={draft.maximum}
              onChange={(event) => change({ maximum: event.target.value })}
              error={errorOf("maxCents")}
              hint={draft.method === "debicheck" ? t("eMandates.form.maximumHintDebicheck") : t("eMandates.form.maximumHint")}
              inputMode="decimal"
              placeholder="0.00"
              data-testid="e-mandate-maximum"
            />
            <SelectField
              label={t("eMandates.form.interval")}
              value={draft.interval}
              onChange={(event) => change({ interval: event.target.value as EMandateDraft["interval"] })}
              error={errorOf("interval")}
              options={INTERVALS.map((interval) => ({ value: interval, label: t(`collections.interval.${interval}`) }))}
              data-testid="e-mandate-interval"
            />
            <TextField label={t("eMandates.form.startDate")} type="date" value={draft.startDate} onChange={(event) => change({ startDate: event.target.value })} error={errorOf("startDate")} required data-testid="e-mandate-startDate" />
          </div>
        </fieldset>
        <fieldset className="form-section">
          <legend>{t("eMandates.form.changeSection")}</legend>
          {CHANGEABLE.map((term) => (
            <CheckboxField
              key={term}
              label={t(`eMandates.changeable.${term}`)}
              hint={t(`eMandates.changeableHint.${term}`)}
              checked={draft.payerMayChange.includes(term)}
              onChange={(on) => toggle(term, on)}
              testId={`e-mandate-change-${term}`}
            />
          ))}
        </fieldset>
      </fieldset>
      <div className="form-actions">
        <Button onClick={onDone} disabled={request.busy}>
          {t("eMandates.form.cancel")}
        </Button>
        <Button type="submit" variant="primary" busy={request.busy} needs="mandates:write" data-testid="e-mandate-submit">
          {request.busy ? t("eMandates.form.sending") : t("eMandates.form.send")}
        </Button>
      </div>
    </form>
  );
}
