import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Button } from "../../components/Button";
import { formatMoney } from "../../components/format";
import { useCan } from "../../live/permissions";
import { useBankAccounts } from "../../live/useBankAccounts";
import type { BankAccount, Transaction } from "../../protocol/wire";
import { PayToCustomerDialog } from "./PayToCustomerDialog";
import { usePayoutList } from "./usePayouts";

/** The customer's bank accounts the payout can go to; null while loading or when they cannot be read. */
function useAccounts(customerId: string): BankAccount[] | null {
  // Without the accounts there is nothing to pay to: the action stays hidden.
  const view = useBankAccounts(customerId);
  return view.state === "ready" ? view.accounts : null;
}

const DEBIT_ORDERS = new Set(["debicheck", "registered_mandate", "eft_debit_order"]);

/** Whether a transaction is a paid debit order, which is refunded by a payout to its customer. */
export function refundsByPayout(transaction: Transaction): boolean {
  return transaction.status === "paid" && DEBIT_ORDERS.has(transaction.method) && transaction.customerId !== undefined;
}

/**
 * The payouts made for a transaction, linked to their detail, and "Pay back to customer" on a paid
 * debit order: the customer's account, the debit's amount and the transaction filled in.
 */
export function TransactionPayoutAction({ transaction }: { transaction: Transaction }) {
  const mayRead = useCan("payouts", "read");
  // Payouts go to a customer's account: a charge without a kept customer has none.
  if (!mayRead || !transaction.customerId) return null;
  return <CustomerPayouts transaction={transaction} customerId={transaction.customerId} />;
}

function CustomerPayouts({ transaction, customerId }: { transaction: Transaction; customerId: string }) {
  const { t, i18n } = useTranslation();
  const list = usePayoutList();
  const [paying, setPaying] = useState(false);
  const accounts = useAccounts(customerId);
  const made = list && "value" in list ? list.value.filter((p) => p.transactionId === transaction.id) : [];
  const canPay = refundsByPayout(transaction) && accounts !== null && accounts.length > 0;
  if (made.length === 0 && !canPay) return null;
  return (
    <div className="card" data-testid="transaction-payouts">
      <h2 className="card-title">{t("payouts.forTransaction.title")}</h2>
      {made.length > 0 ? (
        <ul className="detail-list">
          {made.map((payout) => (
            <li key={payout.id} className="detail-row">
              <Link to={`/account/payouts?payout=${encodeURIComponent(payout.id)}`} className="table-link" data-testid="transaction-payout-link">
                {formatMoney(payout.netCents, i18n.language)} · {t(`payouts.status.${payout.status}`)}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="cell-sub">{t("payouts.forTransaction.none")}</p>
      )}
      {canPay ? (
        <div className="form-actions">
          <Button className="btn-sm" onClick={() => setPaying(true)} needs="payouts:write" data-testid="pay-back-to-customer">
            {t("payouts.forTransaction.payBack")}
          </Button>
        </div>
      ) : null}
      {paying && accounts ? (
        <PayToCustomerDialog
          customerId={customerId}
          accounts={accounts}
          transactionId={transaction.id}
          initialAmountCents={transaction.amountCents}
          initialReason={t("payouts.forTransaction.reason", { reference: transaction.reference })}
          // Back to the account the debit came from, when the customer still has it.
          initialAccountId={accounts.find((a) => a.accountNumber.endsWith(transaction.accountLastDigits))?.id}
          onClose={() => setPaying(false)}
        />
      ) : null}
    </div>
  );
}
