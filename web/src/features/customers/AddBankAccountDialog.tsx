import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { SelectField, TextField } from "../../components/Field";
import { useRevealErrors } from "../../components/useRevealErrors";
import { useFieldErrors } from "../../components/useFieldErrors";
import { useCommand } from "../../live/useCommand";
import type { Customer } from "../../protocol/wire";
import {
  accountDigitsHint,
  BANK_ACCOUNT_FIELD_OF_CODE,
  BANK_ACCOUNT_FIELDS,
  bankAccountFormFrom,
  changedBankAccountFields,
  chooseBank,
  emptyBankAccountDraft,
  HOLDER_NAME_MAX,
  type BankAccountDraft,
  type BankAccountField,
} from "../../components/bankAccountFields";
import { ACCOUNT_TYPES } from "../../components/banks";
import { BANKS } from "../../protocol/wire";
import { ErrorAlert } from "../../components/ErrorAlert";

type AddBankAccountDialogProps = { customer: Customer; open: boolean; onOpenChange: (open: boolean) => void };

export function AddBankAccountDialog({ customer, open, onOpenChange }: AddBankAccountDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t("bankAccounts.addTitle")} closeLabel={t("common.close")} testId="add-bank-account-dialog" needs="customers:write">
      {/* Mounted while open only: every opening starts from an empty form. */}
      <BankAccountForm customer={customer} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}


function BankAccountForm({ customer, onDone }: { customer: Customer; onDone: () => void }) {
  const { t } = useTranslation();
  const add = useCommand();
  const [draft, setDraft] = useState<BankAccountDraft>(() => emptyBankAccountDraft(customer.name));
  const errors = useFieldErrors(add.error, BANK_ACCOUNT_FIELDS, BANK_ACCOUNT_FIELD_OF_CODE);
  const errorOf = (field: BankAccountField) => (errors.fields[field] ? t(`errors.${errors.fields[field]}`) : undefined);
  const { form, refused } = useRevealErrors();

  function update(next: BankAccountDraft) {
    errors.edited(...changedBankAccountFields(draft, next));
    setDraft(next);
  }
  const set = (field: BankAccountField) => (value: string) => update({ ...draft, [field]: value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    // A press starts over: what was said of the last one is not about what is sent now.
    add.clearError();
    errors.found({});
    const built = bankAccountFormFrom(draft);
    // The account goes even with blanks and no bank: the server's answer and the form's own
    // findings show together, in one go.
    const reply = built.input ? await add.run({ t: "AddBankAccount", customerId: customer.id, input: built.input }) : null;
    if (reply) {
      onDone();
      return;
    }
    errors.found(built.errors);
    refused();
  }

  return (
    <form ref={form} className="form" onSubmit={submit} noValidate data-testid="bank-account-form">
      {errors.general ? <ErrorAlert code={errors.general} /> : null}
      <fieldset className="form-fieldset" disabled={add.busy}>
        <div className="form-grid">
          <SelectField
            name="bank"
            label={t("bankAccounts.fields.bank")}
            value={draft.bank}
            onChange={(event) => update(chooseBank(draft, event.target.value))}
            error={errorOf("bank")}
            data-testid="bank-account-bank"
            options={[{ value: "", label: t("bankAccounts.chooseBank") }, ...BANKS.map((bank) => ({ value: bank.id, label: bank.name }))]}
          />
          <TextField
            name="branchCode"
            label={t("bankAccounts.fields.branchCode")}
            value={draft.branchCode}
            onChange={(event) => set("branchCode")(event.target.value)}
            error={errorOf("branchCode")}
            hint={t("bankAccounts.branchCodeHint")}
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            data-testid="bank-account-branchCode"
          />
          <SelectField
            name="accountType"
            label={t("bankAccounts.fields.accountType")}
            value={draft.accountType}
            onChange={(event) => set("accountType")(event.target.value)}
            error={errorOf("accountType")}
            data-testid="bank-account-accountType"
            options={ACCOUNT_TYPES.map((type) => ({ value: type, label: t(`bankAccounts.types.${type}`) }))}
          />
          <TextField
            name="holderName"
            label={t("bankAccounts.fields.holderName")}
            value={draft.holderName}
            onChange={(event) => set("holderName")(event.target.value)}
            error={errorOf("holderName")}
            autoComplete="off"
            maxLength={HOLDER_NAME_MAX}
            data-testid="bank-account-holderName"
          />
          <div className="form-wide">
            <TextField
              name="accountNumber"
              label={t("bankAccounts.fields.accountNumber")}
              value={draft.accountNumber}
              onChange={(event) => set("accountNumber")(event.target.value)}
              error={errorOf("accountNumber")}
              hint={accountDigitsHint(draft.bank, t)}
              inputMode="numeric"
              autoComplete="off"
              data-testid="bank-account-accountNumber"
            />
          </div>
        </div>
      </fieldset>
      <div className="form-actions">
        <Button onClick={onDone} disabled={add.busy}>
          {t("customers.cancel")}
        </Button>
        <Button type="submit" variant="primary" busy={add.busy} needs="customers:write" data-testid="bank-account-submit">
          {add.busy ? t("customers.saving") : t("bankAccounts.add")}
        </Button>
      </div>
    </form>
  );
}
