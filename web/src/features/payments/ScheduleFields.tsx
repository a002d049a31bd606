import { useTranslation } from "react-i18next";
import { CheckboxField } from "../../components/CheckboxField";
import { SelectField, TextField } from "../../components/Field";
import type { Interval, PaymentMethod } from "../../protocol/wire";
import { INTERVALS, type PaymentDraft, type PaymentFormField } from "./paymentForm";
import { maxDayToProcess } from "./schedule";

type ScheduleFieldsProps = {
  draft: PaymentDraft;
  method: PaymentMethod | undefined;
  errorOf: (field: PaymentFormField) => string | undefined;
  onChange: (patch: Partial<PaymentDraft>) => void;
};

// Transaction references are letters, digits and dashes, up to 30.
const TRANSACTION_REFERENCE_MAX = 30;

/** The amount and when to collect it: one date, or a schedule. */
export function ScheduleFields({ draft, method, errorOf, onChange }: ScheduleFieldsProps) {
  const { t } = useTranslation();
  const once = draft.kind === "once";
  return (
    <div className="form-grid" data-testid="schedule-fields">
      <TextField
        label={t("payments.form.amount")}
        value={draft.amount}
        onChange={(event) => onChange({ amount: event.target.value })}
        error={errorOf("amountCents")}
        hint={t("payments.form.amountHint")}
        inputMode="decimal"
        placeholder="0.00"
        required
        data-testid="payment-amount-input"
      />
      {once ? (
        <>
          <TextField
            label={t("payments.form.dateToProcess")}
            type="date"
            value={draft.dateToProcess}
            onChange={(event) => onChange({ dateToProcess: event.target.value })}
            error={errorOf("dateToProcess")}
            required
            data-testid="payment-dateToProcess"
          />
          <TextField
            label={t("payments.form.transactionReference")}
            value={draft.transactionReference}
            onChange={(event) => onChange({ transactionReference: event.target.value })}
            error={errorOf("transactionReference")}
            hint={t("payments.form.transactionReferenceHint")}
            maxLength={TRANSACTION_REFERENCE_MAX}
            autoComplete="off"
            data-testid="payment-transactionReference"
          />
        </>
      ) : (
        <>
          <TextField
            label={t("payments.form.firstCollection")}
            value={draft.firstCollection}
            onChange={(event) => onChange({ firstCollection: event.target.value })}
            error={errorOf("firstCollectionCents")}
            hint={t("payments.form.firstCollectionHint")}
            inputMode="decimal"
            placeholder="0.00"
            data-testid="payment-firstCollection"
          />
          <TextField
            label={t("payments.form.startDate")}
            type="date"
            value={draft.startDate}
            onChange={(event) => onChange({ startDate: event.target.value })}
            error={errorOf("startDate")}
            required
            data-testid="payment-startDate"
          />
          <TextField
            label={t("payments.form.endDate")}
            type="date"
            value={draft.endDate}
            min={draft.startDate || undefined}
            onChange={(event) => onChange({ endDate: event.target.value })}
            error={errorOf("endDate")}
            hint={t("payments.form.endDateHint")}
            data-testid="payment-endDate"
          />
          <SelectField
            label={t("payments.form.interval")}
            value={draft.interval}
            onChange={(event) => onChange({ interval: event.target.value as Interval })}
            error={errorOf("interval")}
            options={INTERVALS.map((interval) => ({ value: interval, label: t(`collections.interval.${interval}`) }))}
            data-testid="payment-interval"
          />
          <TextField
            label={t("payments.form.dayToProcess")}
            type="number"
            min={1}
            max={maxDayToProcess(draft.interval)}
            value={draft.dayToProcess}
            onChange={(event) => onChange({ dayToProcess: event.target.value })}
            error={errorOf("dayToProcess")}
            hint={
              draft.interval === "weekly"
                ? t("payments.form.dayHintWeekly")
                : draft.interval === "fortnightly"
                  ? t("payments.form.dayHintFortnightly")
                  : t("payments.form.dayHintMonthly")
            }
            required
            data-testid="payment-dayToProcess"
          />
        </>
      )}
      {method === "eft_debit_order" ? (
        <div className="form-wide">
          <CheckboxField
            label={t("payments.form.startRunning")}
            checked={draft.startRunning}
            onChange={(startRunning) => onChange({ startRunning })}
            hint={t("payments.form.startRunningHint")}
            testId="payment-startRunning"
          />
        </div>
      ) : null}
    </div>
  );
}
