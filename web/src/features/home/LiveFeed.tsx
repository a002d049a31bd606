import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { formatBusinessDate, formatMoney } from "../../components/format";
import { TransactionStatusBadge } from "../../components/TransactionStatusBadge";
import { transactionAtom } from "../../live/cache";
import type { Transaction } from "../../protocol/wire";
import { useLiveFeed } from "./useLiveFeed";

function FeedRow({ id }: { id: string }) {
  const { i18n } = useTranslation();
  const transaction = useAtomValue(transactionAtom(id));
  if (!transaction) return null;
  return (
    <li className="feed-row" data-testid="feed-row" data-transaction-id={id}>
      {/* Keyed by the last change, so a row that changes again flashes again. */}
      <Link to={`/payments/transactions/${id}`} className="feed-link" key={transaction.updatedAt}>
        <span className="feed-main">
          <span className="feed-customer">{transaction.customerName}</span>
          <span className="feed-date">{formatBusinessDate(transaction.actionDate, i18n.language)}</span>
        </span>
        <span className="feed-amount">{formatMoney(transaction.amountCents, i18n.language)}</span>
        <TransactionStatusBadge status={transaction.status} />
      </Link>
    </li>
  );
}

export function LiveFeed({ recent }: { recent: Transaction[] }) {
  const { t } = useTranslation();
  const ids = useLiveFeed(recent.map((transaction) => transaction.id));
  return (
    <div className="card home-panel" data-testid="live-feed">
      <h2 className="card-title feed-title">
        <span className="feed-pulse" aria-hidden="true" />
        {t("home.feed.title")}
      </h2>
      {ids.length === 0 ? (
        <p className="home-empty">{t("home.feed.empty")}</p>
      ) : (
        // Not a live region: a test clock month moves dozens of rows a second, too many to read out.
        <ul className="feed" aria-label={t("home.feed.title")}>
          {ids.map((id) => (
            <FeedRow key={id} id={id} />
          ))}
        </ul>
      )}
    </div>
  );
}
