import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import type { MouseEvent } from "react";
import { Link, useNavigate } from "../../components/placeLinks";
import { formatBusinessDate, formatMoney } from "../../components/format";
import { TransactionStatusBadge } from "../../components/TransactionStatusBadge";
import { transactionAtom } from "../../live/cache";
import { UnpaidRowMenu } from "./UnpaidFollowUps";

export function TransactionRow({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const transaction = useAtomValue(transactionAtom(id));
  const navigate = useNavigate();
  if (!transaction) return null;
  const path = `/payments/transactions/${id}`;
  // A click anywhere on the row opens it, as its date's link does for the keyboard and for a
  // new tab; a click on a control of its own, or one that ends a text selection, is left alone.
  // So is one in a menu or dialog the row opened: React hands it up through their portals.
  const open = (event: MouseEvent<HTMLTableRowElement>) => {
    if (!event.currentTarget.contains(event.target as Node)) return;
    if (event.defaultPrevented || (event.target as Element).closest("a, button, input, select, label")) return;
    if (window.getSelection()?.toString()) return;
    void navigate(path);
  };
  return (
    <tr data-testid="transaction-row" data-transaction-id={id} className="row-opens" onClick={open}>
      <td className="cell-nowrap">
        <Link to={path} className="table-link">
          {formatBusinessDate(transaction.actionDate, i18n.language)}
        </Link>
      </td>
      <td>
        {transaction.customerName}
        <span className="cell-sub">•••• {transaction.accountLastDigits}</span>
      </td>
      <td className="cell-mono hide-sm">
        <span data-testid="transaction-reference">{transaction.reference}</span>
        {transaction.attempt > 1 ? <span className="cell-sub">{t("transactions.attempt", { attempt: transaction.attempt })}</span> : null}
      </td>
      <td className="cell-muted hide-md">{t(`collections.method.${transaction.method}`)}</td>
      <td className="cell-amount" data-testid="transaction-amount">
        {formatMoney(transaction.amountCents, i18n.language)}
      </td>
      <td>
        <TransactionStatusBadge status={transaction.status} />
        {transaction.unpaidCode ? <span className="cell-sub cell-mono">{transaction.unpaidCode}</span> : null}
        <UnpaidRowMenu transaction={transaction} />
      </td>
    </tr>
  );
}

/** The header cells of a table of `TransactionRow`s. */
export function TransactionColumns() {
  const { t } = useTranslation();
  return (
    <>
      <th scope="col">{t("transactions.columns.actionDate")}</th>
      <th scope="col">{t("transactions.columns.customer")}</th>
      <th scope="col" className="hide-sm">{t("transactions.columns.reference")}</th>
      <th scope="col" className="hide-md">{t("transactions.columns.method")}</th>
      <th scope="col" className="cell-amount">{t("transactions.columns.amount")}</th>
      <th scope="col">{t("transactions.columns.status")}</th>
    </>
  );
}
