import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { SelectField, TextField } from "../../components/Field";
import {
  changedBankAccountFields,
  chooseBank,
  emptyBankAccountDraft,
  HOLDER_NAME_MAX,
  type BankAccountDraft,
  type BankAccountField,
} from "../../components/bankAccountFields";
import { ACCOUNT_TYPES } from "../../components/banks";
import { useRevealErrors } from "../../components/useRevealErrors";
import { useFieldErrors } from "../../components/useFieldErrors";
import { useCommand } from "../../live/useCommand";
import { BANKS } from "../../protocol/wire";
import { accountDigitsHint, BANK_ACCOUNT_FIELD_OF_CODE } from "../../components/bankAccountFields";
import { SETTLEMENT_FIELDS, settlementFormFrom, type SettlementField } from "./settlementForm";
import { ErrorAlert } from "../../components/ErrorAlert";

/** The settlement account, checked with the bank; needs the member's password or code. */
export function SettlementAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const save = useCommand();
  const [draft, setDraft] = useState<BankAccountDraft>(() => emptyBankAccountDraft());
  const [confirmation, setConfirmation] = useState("");
  const errors = useFieldErrors(save.error, SETTLEMENT_FIELDS, BANK_ACCOUNT_FIELD_OF_CODE);
  const errorOf = (field: SettlementField) => (errors.fields[field] ? t(`errors.${errors.fields[field]}`) : undefined);
  const { form, refused } = useRevealErrors();

  function update(next: BankAccountDraft) {
    errors.edited(...changedBankAccountFields(draft, next));
    setDraft(next);
  }
  const set = (field: BankAccountField) => (value: string) => update({ ...draft, [field]: value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    // A press starts over: what was said of the last one is not about what is sent now.
    save.clearError();
    errors.found({});
    const built = settlementFormFrom(draft, confirmation);
    // The account goes even with blanks and no bank: the server's answer (the bank's word on the
    // number among it) and the form's own findings show together, in one go.
    const reply = built.input ? await save.run({ t: "SetSettlementAccount", input: built.input, confirmation }) : null;
    if (reply) {
      onClose();
      return;
    }
    errors.found(built.errors);
    refused();
  }

  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())} title={t("payouts.account.dialogTitle")} description={t("payouts.account.dialogBody")} closeLabel={t("common.close")} testId="settlement-account-dialog" needs="settings:write">
      <form ref={form} className="form" onSubmit={submit} noValidate>
        {errors.general ? <ErrorAlert code={errors.general} /> : null}
        <fieldset className="form-fieldset" disabled={save.busy}>
          <div className="form-grid">
            <SelectField
              label={t("bankAccounts.fields.bank")}
              value={draft.bank}
              onChange={(event) => update(chooseBank(draft, event.target.value))}
              error={errorOf("bank")}
              data-testid="settlement-bank"
              options={[{ value: "", label: t("bankAccounts.chooseBank") }, ...BANKS.map((bank) => ({ value: bank.id, label: bank.name }))]}
            />
            <TextField label={t("bankAccounts.fields.branchCode")} value={draft.branchCode} onChange={(e) => set("branchCode")(e.target.value)} error={errorOf("branchCode")} inputMode="numeric" maxLength={6} autoComplete="off" data-testid="settlement-branchCode" />
            <SelectField
              label={t("bankAccounts.fields.accountType")}
              value={draft.accountType}
              onChange={(e) => set("accountType")(e.target.value)}
              error={errorOf("accountType")}
              options={ACCOUNT_TYPES.map((type) => ({ value: type, label: t(`bankAccounts.types.${type}`) }))}
              data-testid="settlement-accountType"
            />
            <TextField label={t("bankAccounts.fields.holderName")} value={draft.holderName} onChange={(e) => set("holderName")(e.target.value)} error={errorOf("holderName")} maxLength={HOLDER_NAME_MAX} autoComplete="off" data-testid="settlement-holderName" />
            <div className="form-wide">
              <TextField label={t("bankAccounts.fields.accountNumber")} value={draft.accountNumber} onChange={(e) => set("accountNumber")(e.target.value)} error={errorOf("accountNumber")} hint={accountDigitsHint(draft.bank, t)} inputMode="numeric" autoComplete="off" data-testid="settlement-accountNumber" />
            </div>
            <div className="form-wide">
              <TextField
                label={t("payouts.account.confirmation")}
                type="password"
                autoComplete="current-password"
                value={confirmation}
                onChange={(e) => {
                  errors.edited("confirmation");
                  setConfirmation(e.target.value);
                }}
                hint={t("payouts.account.confirmationHint")}
                error={errorOf("confirmation")}
                data-testid="settlement-confirmation"
              />
            </div>
          </div>
        </fieldset>
        <div className="form-actions">
          <Button onClick={onClose} disabled={save.busy}>
            {t("customers.cancel")}
          </Button>
          <Button type="submit" variant="primary" busy={save.busy} needs="settings:write" data-testid="save-settlement-account">
            {t("payouts.account.save")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
