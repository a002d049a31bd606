import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useLiveClient } from "../../live/context";
import type { BankAccount } from "../../protocol/wire";
import { bankName, maskAccountNumber } from "../../components/banks";

type RemoveBankAccountDialogProps = { account: BankAccount | null; onClose: () => void };

export function RemoveBankAccountDialog({ account, onClose }: RemoveBankAccountDialogProps) {
  const { t } = useTranslation();
  const client = useLiveClient();
  const [busy, setBusy] = useState(false);

  async function remove() {
    if (!account) return;
    setBusy(true);
    try {
      await client.command({ t: "RemoveBankAccount", bankAccountId: account.id });
      onClose();
    } catch {
      // The global notice says what went wrong; the dialog stays open to try again.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={account !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      size="sm"
      title={t("bankAccounts.removeTitle")}
      description={account ? t("bankAccounts.removeBody", { bank: bankName(account.bank), number: maskAccountNumber(account.accountNumber) }) : undefined}
      closeLabel={t("common.close")}
      testId="remove-bank-account-dialog"
      needs="customers:write"
    >
      <div className="form-actions">
        <Button onClick={onClose} disabled={busy}>
          {t("customers.cancel")}
        </Button>
        <Button variant="danger" onClick={remove} busy={busy} needs="customers:write" data-testid="confirm-remove-bank-account">
          {t("bankAccounts.remove")}
        </Button>
      </div>
    </Dialog>
  );
}
