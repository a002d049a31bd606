import { useCallback, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useFieldErrors } from "../../components/useFieldErrors";
import { PageSpinner } from "../../components/Spinner";
import { usePaymentMethodSettings } from "../../live/usePaymentMethodSettings";
import { useCommand } from "../../live/useCommand";
import type { Customer, ErrorCode, Mandate, PaymentKind, PaymentMethod, PaymentMethodSettings } from "../../protocol/wire";
import { CustomerPicker } from "../../components/CustomerPicker";
import { bankAccountFieldsOfCode } from "../../components/bankAccountFields";
import { useRevealErrors } from "../../components/useRevealErrors";
import { MandateFields } from "./MandateFields";
import { MandatePicker } from "./MandatePicker";
import { paymentPath } from "./paths";
import {
  changedPaymentFields,
  emptyMandateDraft,
  emptyPaymentDraft,
  offeredMethods,
  PAYMENT_FORM_FIELDS,
  paymentInputFrom,
  type FormErrors,
  type PaymentDraft,
  type PaymentFormField,
} from "./paymentForm";
import { ScheduleFields } from "./ScheduleFields";
// The form's own look, wherever it opens (the payments lists, a customer's page).
import "./payments.css";
import { ErrorAlert } from "../../components/ErrorAlert";

type NewPaymentDialogProps = {
  kind: PaymentKind;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The payer, chosen already (the form opened from their page). */
  customer?: Customer;
};

export function NewPaymentDialog({ kind, open, onOpenChange, customer }: NewPaymentDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={kind === "once" ? t("payments.form.titleOnce") : t("payments.form.titleRecurring")}
      description={t("payments.form.description")}
      closeLabel={t("common.close")}
      testId="new-payment-dialog"
      needs="payments:write"
    >
      <SettingsGate kind={kind} customer={customer} onCancel={() => onOpenChange(false)} />
    </Dialog>
  );
}

function SettingsGate({ kind, customer, onCancel }: { kind: PaymentKind; customer?: Customer; onCancel: () => void }) {
  const { t } = useTranslation();
  const view = usePaymentMethodSettings();
  if (view.state === "loading") return <PageSpinner label={t("app.loading")} />;
  if (view.state === "error") return <Alert>{t(`errors.${view.code}`)}</Alert>;
  if (offeredMethods(view.settings).length === 0) return <Alert tone="info">{t("payments.form.noMethods")}</Alert>;
  return <PaymentForm kind={kind} settings={view.settings} payer={customer} onCancel={onCancel} />;
}

/** The draft for `customer`: their mandate and bank account are picked once theirs are read. */
function draftFor(current: PaymentDraft, settings: PaymentMethodSettings, customer: Customer | null): PaymentDraft {
  return {
    ...current,
    customerId: customer?.id ?? "",
    mandateChoice: "new",
    mandateId: "",
    mandate: { ...emptyMandateDraft(settings, customer?.name), method: current.mandate.method },
  };
}

// Codes that are about one field even when the server names none.
const BY_CODE: Partial<Record<ErrorCode, PaymentFormField>> = {
  method_not_enabled: "mandate.method",
  debicheck_individuals_only: "mandate.clientType",
  mandate_not_usable: "mandate",
  ...bankAccountFieldsOfCode("mandate.bankAccount."),
};

type PaymentFormProps = { kind: PaymentKind; settings: PaymentMethodSettings; payer?: Customer; onCancel: () => void };

function PaymentForm({ kind, settings, payer, onCancel }: PaymentFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCommand();
  const [draft, setDraft] = useState<PaymentDraft>(() => draftFor(emptyPaymentDraft(kind, settings), settings, payer ?? null));
  const [customer, setCustomer] = useState<Customer | null>(payer ?? null);
  const [existingMethod, setExistingMethod] = useState<PaymentMethod | undefined>();
  // After a refused press, the first field in error takes the cursor (and scrolls into view).
  const { form, refused } = useRevealErrors();

  const shown = useFieldErrors(create.error, PAYMENT_FORM_FIELDS, BY_CODE);
  const { edited, found } = shown;
  const errors: FormErrors = shown.fields;
  const errorOf = (field: PaymentFormField) => (errors[field] ? t(`errors.${errors[field]}`) : undefined);
  const methods = offeredMethods(settings);
  const method = draft.mandateChoice === "new" ? draft.mandate.method : existingMethod;

  function chooseCustomer(chosen: Customer | null) {
    // What was said about the last customer's form (its mandate, its bank) no longer applies.
    found({});
    create.clearError();
    setCustomer(chosen);
    setExistingMethod(undefined);
    setDraft((current) => draftFor(current, settings, chosen));
  }

  // Stable, as the mandate picker chooses the customer's first mandate from an effect.
  const chooseMandateKind = useCallback(
    (mandateChoice: PaymentDraft["mandateChoice"]) => {
      edited("mandate");
      setDraft((current) => ({ ...current, mandateChoice }));
    },
    [edited],
  );
  const chooseMandate = useCallback(
    (mandate: Mandate | undefined) => {
      edited("mandate");
      setExistingMethod(mandate?.method);
      setDraft((current) => ({ ...current, mandateId: mandate?.id ?? "" }));
    },
    [edited],
  );

  function update(next: PaymentDraft) {
    edited(...changedPaymentFields(draft, next));
    setDraft(next);
  }

  // On top of the draft as it is by then: the mandate picker may pick the customer's mandate
  // in the same moment as the account picker picks their saved account.
  function updateMandate(patch: Partial<PaymentDraft["mandate"]>) {
    edited(...changedPaymentFields(draft, { ...draft, mandate: { ...draft.mandate, ...patch } }));
    setDraft((current) => ({ ...current, mandate: { ...current.mandate, ...patch } }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    // A press starts over: what was said of the last one is not about what is sent now.
    create.clearError();
    found({});
    const built = paymentInputFrom(draft, { existingMethod, payer: customer ?? undefined });
    // A form that can travel goes even with blanks: the server's answer brings what only it
    // can tell, and the form's own findings show with it, in one go.
    const reply = built.input ? await create.run({ t: "CreatePayment", input: built.input }) : null;
    found(built.errors);
    if (reply?.t === "Committed" && reply.id) navigate(paymentPath(kind, reply.id));
    else refused();
  }

  const needsIdentity = Boolean(errors["customer.idNumber"] || errors["customer.cellphone"]);

  return (
    <form ref={form} className="form payment-form" onSubmit={submit} noValidate data-testid="payment-form">
      <ErrorAlert code={shown.general} />
      <fieldset className="form-fieldset" disabled={create.busy}>
        <fieldset className="form-section">
          <legend>{t("payments.form.customerSection")}</legend>
          <CustomerPicker customer={customer} onChoose={chooseCustomer} error={errorOf("customerId")} />
          {needsIdentity && customer ? (
            <Alert testId="customer-needs-identity">{t("payments.form.customerNeedsIdentity", { name: customer.name })}</Alert>
          ) : null}
        </fieldset>
        {customer ? (
          <>
            <fieldset className="form-section">
              <legend>{t("payments.form.mandateSection")}</legend>
              <MandatePicker
                customer={customer}
                methods={methods}
                choice={draft.mandateChoice}
                mandateId={draft.mandateId}
                error={errorOf("mandate")}
                onChoice={chooseMandateKind}
                onMandate={chooseMandate}
              />
              {draft.mandateChoice === "new" ? (
                <MandateFields
                  kind={kind}
                  customer={customer}
                  methods={methods}
                  draft={draft.mandate}
                  errorOf={errorOf}
                  onChange={updateMandate}
                />
              ) : null}
            </fieldset>
            <fieldset className="form-section">
              <legend>{t("payments.form.paymentSection")}</legend>
              <ScheduleFields
                draft={draft}
                method={method}
                errorOf={errorOf}
                onChange={(patch) => update({ ...draft, ...patch })}
              />
            </fieldset>
          </>
        ) : null}
      </fieldset>
      <div className="form-actions">
        <Button onClick={onCancel} disabled={create.busy}>
          {t("payments.form.cancel")}
        </Button>
        <Button type="submit" variant="primary" busy={create.busy} needs="payments:write" data-testid="payment-submit">
          {create.busy ? t("payments.form.creating") : t("payments.form.create")}
        </Button>
      </div>
    </form>
  );
}
