import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { FilterClear, FilterSearch, FilterSelect, methodOptions } from "../../components/FilterBar";
import "../../components/filterBar.css";
import { PageHeader } from "../../components/PageHeader";
import { PagedTable } from "../../components/PagedTable";
import { SummaryLink } from "../../components/SummaryLink";
import { orderUpsertsAtom } from "../../live/cache";
import { usePagedList } from "../../live/usePagedList";
import { OrderDetail } from "./OrderDetail";
import { OrderRow } from "./OrderRow";
import "./orders.css";
import { isOrderFiltered, ORDER_METHODS, ORDER_STATUSES, orderFilterOf, type OrderView } from "./orderView";
import { useOrderView } from "./useOrderView";

const PAGE_SIZE = 50;

export function OrdersPage() {
  const { t } = useTranslation();
  const { view, update, clear, openOrder } = useOrderView();
  const filter = orderFilterOf(view);
  const list = usePagedList({
    kind: "order",
    upserts: orderUpsertsAtom,
    query: (cursor) => ({ t: "ListOrders", filter, cursor, limit: PAGE_SIZE }),
    key: JSON.stringify(filter),
  });
  const filtered = isOrderFiltered(view);

  return (
    <section className="page" data-testid="orders-page">
      <PageHeader title={t("orders.title")} subtitle={t("orders.subtitle")} actions={<SummaryLink />} />
      <OrderFilters view={view} onChange={update} onClear={clear} />
      <PagedTable
        list={list}
        testId="order-table"
        empty={
          <EmptyState
            testId="orders-empty"
            title={filtered ? t("orders.noMatches") : t("orders.empty")}
            body={filtered ? undefined : t("orders.emptyHint")}
            action={
              filtered ? (
                <Button onClick={clear} data-testid="empty-clear">
                  {t("collections.filters.clear")}
                </Button>
              ) : undefined
            }
          />
        }
        columns={
          <>
            <th scope="col">{t("orders.columns.created")}</th>
            <th scope="col">{t("orders.columns.payer")}</th>
            <th scope="col" className="hide-sm">{t("orders.columns.reference")}</th>
            <th scope="col" className="hide-md">{t("orders.columns.method")}</th>
            <th scope="col" className="cell-amount">{t("orders.columns.amount")}</th>
            <th scope="col">{t("orders.columns.status")}</th>
          </>
        }
        row={(id) => (
          <OrderRow key={id} id={id} onOpen={openOrder} />
        )}
        loadMoreLabel={t("orders.loadMore")}
        loadingMoreLabel={t("orders.loadingMore")}
      />
      {view.order ? <OrderDetail key={view.order} id={view.order} onClose={() => openOrder(undefined)} /> : null}
    </section>
  );
}

type OrderFiltersProps = { view: OrderView; onChange: (patch: Partial<OrderView>) => void; onClear: () => void };

function OrderFilters({ view, onChange, onClear }: OrderFiltersProps) {
  const { t } = useTranslation();
  const statuses = ORDER_STATUSES.map((status) => ({ value: status, label: t(`orders.status.${status}`) }));
  return (
    <div className="filter-bar" role="search" aria-label={t("collections.filters.label")} data-testid="order-filters">
      <FilterSearch value={view.search} placeholder={t("orders.searchPlaceholder")} onCommit={(search) => onChange({ search })} />
      <FilterSelect label={t("collections.filters.status")} value={view.status} options={statuses} onChange={(status) => onChange({ status })} testId="filter-status" />
      <FilterSelect
        label={t("collections.filters.method")}
        value={view.method}
        options={methodOptions(ORDER_METHODS, t)}
        onChange={(method) => onChange({ method })}
        testId="filter-method"
      />
      <FilterClear shown={isOrderFiltered(view)} onClear={onClear} />
    </div>
  );
}
