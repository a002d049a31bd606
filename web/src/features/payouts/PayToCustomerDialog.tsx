import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { SelectField, TextField } from "../../components/Field";
import { formatMoney } from "../../components/format";
import { useCommand } from "../../live/useCommand";
import type { BankAccount } from "../../protocol/wire";
import { parseRand, useBalance } from "./usePayouts";
import "./payouts.css";
import { useErrorText } from "../../components/useMay";

type Props = {
  customerId: string;
  accounts: BankAccount[];
  onClose: () => void;
  /** The debit order this payout refunds, linked both ways. */
  transactionId?: string;
  initialAmountCents?: number;
  initialReason?: string;
  initialAccountId?: string;
};

/** Money to a customer's bank account (refunding a debit order, a disbursement); the fee comes on top. */
export function PayToCustomerDialog({ customerId, accounts, onClose, transactionId, initialAmountCents, initialReason, initialAccountId }: Props) {
  const { t, i18n } = useTranslation();
  const pay = useCommand();
  const errorText = useErrorText("payouts:write");
  const balance = useBalance();
  const available = balance && "value" in balance ? balance.value.availableCents : 0;
  const [accountId, setAccountId] = useState(initialAccountId ?? accounts[0]?.id ?? "");
  const [amount, setAmount] = useState(initialAmountCents === undefined ? "" : (initialAmountCents / 100).toFixed(2));
  const [reason, setReason] = useState(initialReason ?? "");
  const [bad, setBad] = useState(false);
  const fieldCode = (name: string) => pay.error?.fields?.find((f) => f.field === name)?.code;
  const reasonCode = fieldCode("reason");

  async function submit(event: FormEvent) {
    event.preventDefault();
    const cents = parseRand(amount);
    setBad(cents === null);
    if (cents === null) return;
    const command = { t: "PayoutToCustomer" as const, customerId, bankAccountId: accountId, amountCents: cents, reason, transactionId };
    if (await pay.run(command)) onClose();
  }

  const amountCode = fieldCode("amountCents") ?? (pay.error && !pay.error.fields?.length ? pay.error.code : undefined);
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? null : onClose())}
      title={t("payouts.toCustomerDialog.title")}
      description={t("payouts.toCustomerDialog.body", { available: formatMoney(available, i18n.language) })}
      closeLabel={t("common.close")}
      size="sm"
      testId="pay-customer-dialog"
      needs="payouts:write"
    >
      <form className="form" onSubmit={submit} noValidate>
        <SelectField
          label={t("payouts.toCustomerDialog.account")}
          value={accountId}
          onChange={(e) => setAccountId(e.target.value)}
          options={accounts.map((a) => ({ value: a.id, label: `${a.holderName} •••• ${a.accountNumber.slice(-4)}` }))}
          data-testid="pay-customer-account"
        />
        <TextField label={t("payouts.payOut.amount")} value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" error={bad ? t("errors.invalid_amount") : amountCode ? errorText(amountCode) : undefined} data-testid="pay-customer-amount" />
        <TextField label={t("payouts.toCustomerDialog.reason")} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={140} error={reasonCode ? t(`errors.${reasonCode}`) : undefined} data-testid="pay-customer-reason" />
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={pay.busy} disabled={!accountId} needs="payouts:write" data-testid="confirm-pay-customer">
            {t("payouts.toCustomerDialog.confirm")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
