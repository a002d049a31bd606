import { useTranslation } from "react-i18next";
import { RELATED_PAGE_SIZE } from "../../components/listView";
import { RelatedList } from "../../components/RelatedList";
import { transactionUpsertsAtom } from "../../live/cache";
import { usePagedList } from "../../live/usePagedList";
import { TransactionColumns, TransactionRow } from "./TransactionRow";

/** A customer's transactions, newest first, on the customer's page. */
export function CustomerTransactions({ customerId }: { customerId: string }) {
  const { t } = useTranslation();
  const list = usePagedList({
    kind: "transaction",
    upserts: transactionUpsertsAtom,
    key: customerId,
    query: (cursor) => ({ t: "ListTransactions", filter: { customerId }, sort: "newest", cursor, limit: RELATED_PAGE_SIZE }),
  });
  return (
    <RelatedList
      title={t("transactions.title")}
      testId="customer-transactions"
      list={list}
      tableTestId="transaction-table"
      columns={<TransactionColumns />}
      row={(id) => <TransactionRow key={id} id={id} />}
      emptyText={t("customers.related.noTransactions")}
      loadMoreLabel={t("transactions.loadMore")}
      loadingMoreLabel={t("transactions.loadingMore")}
    />
  );
}
