import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { SelectField, TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import {
  BANK_ACCOUNT_FIELDS,
  bankAccountInputFrom,
  chooseBank,
  emptyBankAccountDraft,
  HOLDER_NAME_MAX,
  type BankAccountDraft,
  type BankAccountField,
} from "../../components/bankAccountFields";
import { ACCOUNT_TYPES } from "../../components/banks";
import { useCommand } from "../../live/useCommand";
import { BANKS, type ErrorCode } from "../../protocol/wire";

const BY_CODE: Partial<Record<ErrorCode, BankAccountField>> = {
  branch_code_mismatch: "branchCode",
  invalid_branch_code: "branchCode",
  invalid_account_number: "accountNumber",
  bank_account_not_found: "accountNumber",
  bank_account_closed: "accountNumber",
};

/** The settlement account, checked with the bank; needs the member's password or code. */
export function SettlementAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const save = useCommand();
  const [draft, setDraft] = useState<BankAccountDraft>(() => emptyBankAccountDraft());
  const [confirmation, setConfirmation] = useState("");
  const [noBank, setNoBank] = useState(false);
  const placed = placeError(save.error, BANK_ACCOUNT_FIELDS, BY_CODE);
  const fieldErrors: Partial<Record<BankAccountField, ErrorCode>> = { ...placed.fields };
  if (noBank) fieldErrors.bank = "required";
  const errorOf = (field: BankAccountField) => (fieldErrors[field] ? t(`errors.${fieldErrors[field]}`) : undefined);
  const confirmationCode = save.error?.fields?.find((f) => f.field === "confirmation")?.code;
  const general = confirmationCode ? undefined : placed.general;
  const set = (field: BankAccountField) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = bankAccountInputFrom(draft);
    setNoBank(!input);
    if (!input) return;
    if (await save.run({ t: "SetSettlementAccount", input, confirmation })) onClose();
  }

  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())} title={t("payouts.account.dialogTitle")} description={t("payouts.account.dialogBody")} closeLabel={t("common.close")} testId="settlement-account-dialog">
      <form className="form" onSubmit={submit} noValidate>
        {general ? <Alert>{t(`errors.${general}`)}</Alert> : null}
        <fieldset className="form-fieldset" disabled={save.busy}>
          <div className="form-grid">
            <SelectField
              label={t("bankAccounts.fields.bank")}
              value={draft.bank}
              onChange={(event) => {
                setNoBank(false);
                setDraft((current) => chooseBank(current, event.target.value));
              }}
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
              <TextField label={t("bankAccounts.fields.accountNumber")} value={draft.accountNumber} onChange={(e) => set("accountNumber")(e.target.value)} error={errorOf("accountNumber")} inputMode="numeric" autoComplete="off" data-testid="settlement-accountNumber" />
            </div>
            <div className="form-wide">
              <TextField
                label={t("payouts.account.confirmation")}
                type="password"
                autoComplete="current-password"
                value={confirmation}
                onChange={(e) => setConfirmation(e.target.value)}
                hint={t("payouts.account.confirmationHint")}
                error={confirmationCode ? t(`errors.${confirmationCode}`) : undefined}
                data-testid="settlement-confirmation"
              />
            </div>
          </div>
        </fieldset>
        <div className="form-actions">
          <Button onClick={onClose} disabled={save.busy}>
            {t("customers.cancel")}
          </Button>
          <Button type="submit" variant="primary" busy={save.busy} data-testid="save-settlement-account">
            {t("payouts.account.save")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
