import { useAtomValue } from "jotai";
import { useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TestDataMarker } from "../../components/CollectionBadges";
import { EmptyState } from "../../components/EmptyState";
import { FilterBar } from "../../components/FilterBar";
import { isFiltered, listRequest } from "../../components/listView";
import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { useUrlFilters } from "../../components/useUrlFilters";
import { identityAtom } from "../../live/atoms";
import { paymentAtom, paymentUpsertsAtom } from "../../live/cache";
import { usePagedList } from "../../live/usePagedList";
import type { Payment, PaymentFilter, PaymentKind } from "../../protocol/wire";
import { NewPaymentDialog } from "./NewPaymentDialog";
import { PAYMENT_STATUSES } from "./paths";
import { PaymentColumns, PaymentRow } from "./PaymentRow";
import "./payments.css";

const PAGE_SIZE = 25;

/**
 * Whether a payment is in this list's filter, for placing a newcomer without asking the
 * server; undefined for the parts only the server reads (dates by the business's day, search).
 */
export function paymentMatches(kind: PaymentKind, filter: PaymentFilter) {
  return (payment: Payment): boolean | undefined => {
    if (filter.search || filter.from || filter.to) return undefined;
    if (payment.kind !== kind) return false;
    if (filter.status && payment.status !== filter.status) return false;
    if (filter.method && payment.method !== filter.method) return false;
    if (filter.importId && payment.importId !== filter.importId) return false;
    if (filter.minCents !== undefined && payment.amountCents < filter.minCents) return false;
    if (filter.maxCents !== undefined && payment.amountCents > filter.maxCents) return false;
    return true;
  };
}

type PaymentsPageProps = {
  kind: PaymentKind;
  /** More ways to add payments, beside "New payment". */
  moreActions?: ReactNode;
  /** Shown above the list, such as the spreadsheets imported into it. */
  aboveList?: ReactNode;
};

export function PaymentsPage({ kind, moreActions, aboveList }: PaymentsPageProps) {
  const { t } = useTranslation();
  const testMode = useAtomValue(identityAtom)?.mode === "test";
  const { view, update, clear } = useUrlFilters(PAYMENT_STATUSES);
  const { filter, sort, invalid } = useMemo(() => listRequest(view), [view]);
  const key = JSON.stringify([kind, filter, sort]);
  const list = usePagedList({
    kind: "payment",
    upserts: paymentUpsertsAtom,
    key,
    query: (cursor) => ({ t: "ListPayments", kind, filter, sort, cursor, limit: PAGE_SIZE }),
    placement: { record: paymentAtom, matches: paymentMatches(kind, filter), sort },
  });
  const [creating, setCreating] = useState(false);
  const filtered = isFiltered(view);
  const title = kind === "once" ? t("payments.onceTitle") : t("payments.recurringTitle");

  // Refused, with the reason, to a role that may not make payments: the server refuses it too.
  const newButton = (
    <Button variant="primary" onClick={() => setCreating(true)} needs="payments:write" data-testid="new-payment">
      {t("payments.new")}
    </Button>
  );

  return (
    <section className="page" data-testid={`payments-page-${kind}`}>
      <PageHeader
        title={title}
        subtitle={kind === "once" ? t("payments.onceSubtitle") : t("payments.recurringSubtitle")}
        needs="payments:write"
        actions={
          <>
            {testMode ? <TestDataMarker /> : null}
            {moreActions}
            {newButton}
          </>
        }
      />
      {aboveList}
      <FilterBar
        view={view}
        onChange={update}
        onClear={clear}
        invalid={invalid}
        statuses={PAYMENT_STATUSES.map((status) => ({ value: status, label: t(`collections.paymentStatus.${status}`) }))}
        searchPlaceholder={t("payments.searchPlaceholder")}
        testId="payment-filters"
      />
      {list.error ? <Alert>{t(`errors.${list.error}`)}</Alert> : null}
      {list.loading && list.ids.length === 0 ? (
        <div className="table-placeholder">
          <Spinner label={t("app.loading")} />
        </div>
      ) : list.ids.length === 0 && !list.error ? (
        <EmptyState
          testId="payments-empty"
          title={filtered ? t("payments.noMatches") : kind === "once" ? t("payments.emptyOnce") : t("payments.emptyRecurring")}
          body={filtered ? undefined : t("payments.emptyHint")}
          action={filtered ? undefined : newButton}
        />
      ) : list.ids.length === 0 ? null : (
        <div className="table-card table-scroll" aria-busy={list.loading}>
          <table className="table" aria-label={title} data-testid="payment-table">
            <thead>
              <tr>
                <PaymentColumns kind={kind} />
              </tr>
            </thead>
            <tbody>
              {list.ids.map((id) => (
                <PaymentRow key={id} id={id} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.hasMore ? (
        <div className="load-more">
          <Button onClick={list.loadMore} busy={list.loadingMore} data-testid="load-more">
            {list.loadingMore ? t("payments.loadingMore") : t("payments.loadMore")}
          </Button>
        </div>
      ) : null}
      {creating ? <NewPaymentDialog kind={kind} open={creating} onOpenChange={setCreating} /> : null}
    </section>
  );
}
