import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { FilterBar } from "../../components/FilterBar";
import { isFiltered } from "../../components/listView";
import { PageHeader } from "../../components/PageHeader";
import { PagedTable } from "../../components/PagedTable";
import { SummaryLink } from "../../components/SummaryLink";
import { useUrlFilters } from "../../components/useUrlFilters";
import { transactionAtom, transactionUpsertsAtom } from "../../live/cache";
import type { Transaction, TransactionFilter } from "../../protocol/wire";
import { usePagedList } from "../../live/usePagedList";
import { TransactionColumns, TransactionRow } from "./TransactionRow";
import "./transactions.css";
import { TRANSACTION_STATUSES, transactionRequest } from "./transactionView";
import { useCsvExport } from "./useCsvExport";

const PAGE_SIZE = 50;

/** Whether a transaction is in the filter; undefined for what only the server reads (dates, search). */
export function transactionMatches(filter: TransactionFilter) {
  return (transaction: Transaction): boolean | undefined => {
    if (filter.search || filter.from || filter.to) return undefined;
    if (filter.status && transaction.status !== filter.status) return false;
    if (filter.method && transaction.method !== filter.method) return false;
    if (filter.paymentId && transaction.paymentId !== filter.paymentId) return false;
    if (filter.orderId && transaction.orderId !== filter.orderId) return false;
    if (filter.customerId && transaction.customerId !== filter.customerId) return false;
    if (filter.minCents !== undefined && transaction.amountCents < filter.minCents) return false;
    if (filter.maxCents !== undefined && transaction.amountCents > filter.maxCents) return false;
    return true;
  };
}

export function TransactionsPage() {
  const { t } = useTranslation();
  const { view, update, clear } = useUrlFilters(TRANSACTION_STATUSES);
  const request = transactionRequest(view);
  const list = usePagedList({
    kind: "transaction",
    upserts: transactionUpsertsAtom,
    query: (cursor) => ({ t: "ListTransactions", filter: request.filter, sort: request.sort, cursor, limit: PAGE_SIZE }),
    key: request.key,
    placement: { record: transactionAtom, matches: transactionMatches(request.filter), sort: request.sort },
  });
  const csv = useCsvExport(request.filter, request.sort);
  const filtered = isFiltered(view);

  const exportButton = (
    <>
      {view.status === "unpaid" ? null : (
        // The unpaids to follow up, one press away: each row has its follow-ups beside its status.
        <Button onClick={() => update({ status: "unpaid" })} data-testid="show-unpaids">
          {t("transactions.filters.unpaids")}
        </Button>
      )}
      <SummaryLink />
      <Button onClick={csv.run} busy={csv.busy} disabled={list.ids.length === 0} data-testid="export-csv">
        {csv.busy ? t("transactions.export.busy") : t("transactions.export.button")}
      </Button>
    </>
  );

  return (
    <section className="page" data-testid="transactions-page">
      <PageHeader title={t("transactions.title")} subtitle={t("transactions.subtitle")} actions={exportButton} />
      {csv.outcome ? (
        <div className="export-outcome">
          <Alert tone={csv.outcome.tone} testId="export-outcome">
            {csv.outcome.text}
          </Alert>
        </div>
      ) : null}
      <FilterBar
        view={view}
        onChange={update}
        onClear={clear}
        statuses={TRANSACTION_STATUSES.map((status) => ({ value: status, label: t(`collections.transactionStatus.${status}`) }))}
        searchPlaceholder={t("transactions.searchPlaceholder")}
        fromLabel={t("transactions.filters.from")}
        toLabel={t("transactions.filters.to")}
        invalid={request.invalid}
        testId="transaction-filters"
      />
      <PagedTable
        list={list}
        testId="transaction-table"
        empty={
          <EmptyState
            testId="transactions-empty"
            title={filtered ? t("transactions.noMatches") : t("transactions.empty")}
            body={filtered ? undefined : t("transactions.emptyHint")}
            action={
              filtered ? (
                <Button onClick={clear} data-testid="empty-clear">
                  {t("collections.filters.clear")}
                </Button>
              ) : undefined
            }
          />
        }
        columns={<TransactionColumns />}
        row={(id) => (
          <TransactionRow key={id} id={id} />
        )}
        loadMoreLabel={t("transactions.loadMore")}
        loadingMoreLabel={t("transactions.loadingMore")}
      />
    </section>
  );
}
