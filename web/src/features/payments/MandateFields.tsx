import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { accountDigitsHint, chooseBank, HOLDER_NAME_MAX } from "../../components/bankAccountFields";
import { ACCOUNT_TYPES, bankName } from "../../components/banks";
import { BANKS } from "../../protocol/wire";
import { CheckboxField } from "../../components/CheckboxField";
import { SelectField, TextField } from "../../components/Field";
import type { Customer, PaymentKind, PaymentMethod } from "../../protocol/wire";
import {
  ADJUSTMENT_CATEGORIES,
  ADJUSTMENT_TYPES,
  APPROVAL_WINDOWS,
  CLIENT_TYPES,
  INDUSTRIES,
  type MandateDraft,
  type PaymentFormField,
} from "./paymentForm";
import { useBankAccounts } from "../../live/useBankAccounts";

type MandateFieldsProps = {
  kind: PaymentKind;
  customer: Customer;
  methods: readonly PaymentMethod[];
  draft: MandateDraft;
  errorOf: (field: PaymentFormField) => string | undefined;
  onChange: (patch: Partial<MandateDraft>) => void;
};

// Contract references are letters and digits, up to 14.
const CONTRACT_REFERENCE_MAX = 14;

/** Every field of a new mandate, as the import templates have them; only those that apply show. */
export function MandateFields({ kind, customer, methods, draft, errorOf, onChange }: MandateFieldsProps) {
  const { t } = useTranslation();
  const debicheck = draft.method === "debicheck";
  const tracks = draft.method !== "eft_debit_order";
  const recurring = kind === "recurring";
  const options = <T extends string>(values: readonly T[], label: (value: T) => string) => values.map((value) => ({ value, label: label(value) }));

  return (
    <div className="form-grid mandate-fields" data-testid="mandate-fields">
      <SelectField
        label={t("payments.form.method")}
        value={draft.method}
        onChange={(event) => onChange({ method: event.target.value as PaymentMethod })}
        error={errorOf("mandate.method")}
        options={options(methods, (method) => t(`collections.method.${method}`))}
        data-testid="mandate-method"
      />
      <SelectField
        label={t("payments.form.clientType")}
        value={draft.clientType}
        onChange={(event) => onChange({ clientType: event.target.value as MandateDraft["clientType"] })}
        error={errorOf("mandate.clientType")}
        options={options(CLIENT_TYPES, (type) => t(`collections.clientType.${type}`))}
        data-testid="mandate-clientType"
      />
      {debicheck ? <p className="field-hint form-wide">{t("payments.form.debicheckHint")}</p> : null}
      <BankAccountChoice customerId={customer.id} draft={draft} errorOf={errorOf} onChange={onChange} />
      <SelectField
        label={t("payments.form.industry")}
        value={draft.industry}
        onChange={(event) => onChange({ industry: event.target.value as MandateDraft["industry"] })}
        error={errorOf("mandate.industry")}
        options={options(INDUSTRIES, (industry) => t(`collections.industry.${industry}`))}
        data-testid="mandate-industry"
      />
      <TextField
        label={t("payments.form.contractReference")}
        value={draft.contractReference}
        onChange={(event) => onChange({ contractReference: event.target.value })}
        error={errorOf("mandate.contractReference")}
        hint={t("payments.form.contractReferenceHint")}
        maxLength={CONTRACT_REFERENCE_MAX}
        autoComplete="off"
        data-testid="mandate-contractReference"
      />
      <TextField
        label={t("payments.form.maximumCollection")}
        value={draft.maximumCollection}
        onChange={(event) => onChange({ maximumCollection: event.target.value })}
        error={errorOf("mandate.maximumCollectionCents")}
        hint={debicheck ? t("payments.form.maximumCollectionDebicheckHint") : t("payments.form.maximumCollectionHint")}
        inputMode="decimal"
        placeholder="0.00"
        data-testid="mandate-maximumCollection"
      />
      <TextField
        label={t("payments.form.abbreviatedName")}
        value={draft.abbreviatedName}
        onChange={(event) => onChange({ abbreviatedName: event.target.value })}
        error={errorOf("mandate.abbreviatedName")}
        hint={t("payments.form.abbreviatedNameHint")}
        autoComplete="off"
        data-testid="mandate-abbreviatedName"
      />
      {debicheck ? (
        <div className="form-wide">
          <SelectField
            label={t("payments.form.approvalWindow")}
            value={draft.approvalWindow}
            onChange={(event) => onChange({ approvalWindow: event.target.value as MandateDraft["approvalWindow"] })}
            error={errorOf("mandate.approvalWindow")}
            options={options(APPROVAL_WINDOWS, (window) => t(`collections.approvalWindow.${window}`))}
            data-testid="mandate-approvalWindow"
          />
        </div>
      ) : null}
      {tracks ? (
        <>
          <CheckboxField
            label={t("payments.form.allowTracking")}
            checked={draft.allowTracking}
            onChange={(allowTracking) => onChange({ allowTracking })}
            error={errorOf("mandate.allowTracking")}
            hint={t("payments.form.allowTrackingHint")}
            testId="mandate-allowTracking"
          />
          {draft.allowTracking ? (
            <TextField
              label={t("payments.form.trackingDays")}
              type="number"
              min={1}
              max={10}
              value={draft.trackingDays}
              onChange={(event) => onChange({ trackingDays: event.target.value })}
              error={errorOf("mandate.trackingDays")}
              hint={t("payments.form.trackingDaysHint")}
              data-testid="mandate-trackingDays"
            />
          ) : null}
        </>
      ) : null}
      {recurring ? (
        <>
          <CheckboxField
            label={t("payments.form.allowDateAdjustment")}
            checked={draft.allowDateAdjustment}
            onChange={(allowDateAdjustment) => onChange({ allowDateAdjustment })}
            hint={t("payments.form.allowDateAdjustmentHint")}
            testId="mandate-allowDateAdjustment"
          />
          <CheckboxField
            label={t("payments.form.variableAmount")}
            checked={draft.variableAmount}
            onChange={(variableAmount) => onChange({ variableAmount })}
            testId="mandate-variableAmount"
          />
          <SelectField
            label={t("payments.form.adjustmentCategory")}
            value={draft.adjustmentCategory}
            onChange={(event) => onChange({ adjustmentCategory: event.target.value as MandateDraft["adjustmentCategory"] })}
            options={options(ADJUSTMENT_CATEGORIES, (category) => t(`collections.adjustmentCategory.${category}`))}
            data-testid="mandate-adjustmentCategory"
          />
          {draft.adjustmentCategory !== "never" ? (
            <SelectField
              label={t("payments.form.adjustmentType")}
              value={draft.adjustmentType}
              onChange={(event) => onChange({ adjustmentType: event.target.value as MandateDraft["adjustmentType"] })}
              error={errorOf("mandate.adjustmentType")}
              options={[{ value: "", label: t("payments.form.choose") }, ...options(ADJUSTMENT_TYPES, (type) => t(`collections.adjustmentType.${type}`))]}
              data-testid="mandate-adjustmentType"
            />
          ) : null}
          {draft.adjustmentCategory !== "never" && draft.adjustmentType === "rate" ? (
            <TextField
              label={t("payments.form.adjustmentRate")}
              value={draft.adjustmentRate}
              onChange={(event) => onChange({ adjustmentRate: event.target.value })}
              error={errorOf("mandate.adjustmentRate")}
              hint={t("payments.form.adjustmentRateHint")}
              inputMode="decimal"
              data-testid="mandate-adjustmentRate"
            />
          ) : null}
          {draft.adjustmentCategory !== "never" && draft.adjustmentType === "amount" ? (
            <TextField
              label={t("payments.form.adjustmentAmount")}
              value={draft.adjustmentAmount}
              onChange={(event) => onChange({ adjustmentAmount: event.target.value })}
              error={errorOf("mandate.adjustmentAmountCents")}
              inputMode="decimal"
              placeholder="0.00"
              data-testid="mandate-adjustmentAmount"
            />
          ) : null}
        </>
      ) : null}
    </div>
  );
}

type BankAccountChoiceProps = Pick<MandateFieldsProps, "draft" | "errorOf" | "onChange"> & { customerId: string };

/** One of the customer's bank accounts, or a new one added with the mandate. */
function BankAccountChoice({ customerId, draft, errorOf, onChange }: BankAccountChoiceProps) {
  const { t } = useTranslation();
  const accounts = useBankAccounts(customerId);
  const known = accounts.state === "ready" ? accounts.accounts : [];
  const account = draft.bankAccount;
  const setAccount = (patch: Partial<MandateDraft["bankAccount"]>) => onChange({ bankAccount: { ...account, ...patch } });

  // A customer with a saved account most likely means it: picked once, while nothing is typed.
  const defaulted = useRef("");
  const saved = known[0];
  const untouched = draft.bankChoice === "new" && !account.bank && !account.branchCode && !account.accountNumber;
  useEffect(() => {
    if (accounts.state !== "ready" || defaulted.current === customerId) return;
    defaulted.current = customerId;
    if (saved && untouched) onChange({ bankChoice: "existing", bankAccountId: saved.id });
  }, [accounts.state, customerId, saved, untouched, onChange]);

  return (
    <>
      <SelectField
        label={t("payments.form.bankAccount")}
        value={draft.bankChoice === "new" ? "" : draft.bankAccountId}
        onChange={(event) => onChange(event.target.value ? { bankChoice: "existing", bankAccountId: event.target.value } : { bankChoice: "new", bankAccountId: "" })}
        error={errorOf("mandate.bankAccount")}
        options={[
          { value: "", label: t("payments.form.newBankAccount") },
          ...known.map((item) => ({ value: item.id, label: `${bankName(item.bank)} •••• ${item.accountNumber.slice(-4)} · ${item.holderName}` })),
        ]}
        data-testid="mandate-bankAccount"
      />
      {draft.bankChoice === "new" ? (
        <div className="form-wide form-grid nested-grid" data-testid="new-bank-account">
          <SelectField
            label={t("bankAccounts.fields.bank")}
            value={account.bank}
            onChange={(event) => onChange({ bankAccount: chooseBank(account, event.target.value) })}
            error={errorOf("mandate.bankAccount.bank")}
            options={[{ value: "", label: t("bankAccounts.chooseBank") }, ...BANKS.map((bank) => ({ value: bank.id, label: bank.name }))]}
            data-testid="bank-account-bank"
          />
          <TextField
            label={t("bankAccounts.fields.branchCode")}
            value={account.branchCode}
            onChange={(event) => setAccount({ branchCode: event.target.value })}
            error={errorOf("mandate.bankAccount.branchCode")}
            hint={t("bankAccounts.branchCodeHint")}
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            data-testid="bank-account-branchCode"
          />
          <SelectField
            label={t("bankAccounts.fields.accountType")}
            value={account.accountType}
            onChange={(event) => setAccount({ accountType: event.target.value })}
            error={errorOf("mandate.bankAccount.accountType")}
            options={ACCOUNT_TYPES.map((type) => ({ value: type, label: t(`bankAccounts.types.${type}`) }))}
            data-testid="bank-account-accountType"
          />
          <TextField
            label={t("bankAccounts.fields.holderName")}
            value={account.holderName}
            onChange={(event) => setAccount({ holderName: event.target.value })}
            error={errorOf("mandate.bankAccount.holderName")}
            autoComplete="off"
            maxLength={HOLDER_NAME_MAX}
            data-testid="bank-account-holderName"
          />
          <div className="form-wide">
            <TextField
              label={t("bankAccounts.fields.accountNumber")}
              value={account.accountNumber}
              onChange={(event) => setAccount({ accountNumber: event.target.value })}
              error={errorOf("mandate.bankAccount.accountNumber")}
              hint={accountDigitsHint(account.bank, t)}
              inputMode="numeric"
              autoComplete="off"
              data-testid="bank-account-accountNumber"
            />
          </div>
        </div>
      ) : null}
    </>
  );
}
