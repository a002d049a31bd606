import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { formatBusinessDate, formatMoney } from "../../components/format";
import { Spinner } from "../../components/Spinner";
import { TransactionStatusBadge } from "../../components/TransactionStatusBadge";
import { transactionAtom } from "../../live/cache";
import type { PagedList } from "../../live/usePagedList";

/** The debits a payment raised, newest first, changing live as the bank answers. */
export function PaymentTransactions({ list }: { list: PagedList }) {
  const { t } = useTranslation();
  return (
    <section className="card payment-transactions" aria-labelledby="payment-transactions-title" data-testid="payment-transactions">
      <h2 className="card-title" id="payment-transactions-title">
        {t("payments.transactions.title")}
      </h2>
      {list.error ? <Alert>{t(`errors.${list.error}`)}</Alert> : null}
      {list.loading ? <Spinner label={t("app.loading")} /> : null}
      {!list.loading && !list.error && list.ids.length === 0 ? (
        <p className="cell-muted" data-testid="payment-transactions-empty">
          {t("payments.transactions.empty")}
        </p>
      ) : null}
      {list.ids.length > 0 ? (
        <div className="table-scroll">
          <table className="table" aria-labelledby="payment-transactions-title">
            <thead>
              <tr>
                <th scope="col">{t("payments.transactions.actionDate")}</th>
                <th scope="col" className="cell-amount">{t("payments.transactions.amount")}</th>
                <th scope="col" className="hide-sm">{t("payments.transactions.attempt")}</th>
                <th scope="col">{t("payments.transactions.status")}</th>
              </tr>
            </thead>
            <tbody>
              {list.ids.map((id) => (
                <TransactionRow key={id} id={id} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {list.hasMore ? (
        <div className="load-more">
          <Button onClick={list.loadMore} busy={list.loadingMore}>
            {t("payments.loadMore")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function TransactionRow({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const transaction = useAtomValue(transactionAtom(id));
  if (!transaction) return null;
  return (
    <tr data-testid="payment-transaction-row" data-transaction-id={id}>
      <td>
        <Link to={`/payments/transactions/${id}`} className="table-link">
          {formatBusinessDate(transaction.actionDate, i18n.language)}
        </Link>
      </td>
      <td className="cell-amount">{formatMoney(transaction.amountCents, i18n.language)}</td>
      <td className="cell-muted hide-sm">{transaction.attempt}</td>
      <td>
        <TransactionStatusBadge status={transaction.status} />
        {transaction.unpaidCode ? <span className="cell-sub">{t("payments.transactions.code", { code: transaction.unpaidCode })}</span> : null}
      </td>
    </tr>
  );
}
