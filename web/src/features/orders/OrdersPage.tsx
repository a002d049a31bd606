import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { DraftInput } from "../../components/DraftInput";
import { EmptyState } from "../../components/EmptyState";
import "../../components/filterBar.css";
import { PageHeader } from "../../components/PageHeader";
import { PagedTable } from "../../components/PagedTable";
import { orderUpsertsAtom } from "../../live/cache";
import { usePagedList } from "../../live/usePagedList";
import type { OrderStatus, PaymentMethod } from "../../protocol/wire";
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
      <PageHeader title={t("orders.title")} subtitle={t("orders.subtitle")} />
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
  const any = t("collections.filters.any");
  return (
    <div className="filter-bar" role="search" aria-label={t("collections.filters.label")} data-testid="order-filters">
      <DraftInput
        type="search"
        className="input filter-search"
        aria-label={t("collections.filters.search")}
        placeholder={t("orders.searchPlaceholder")}
        value={view.search}
        onCommit={(search) => onChange({ search })}
        data-testid="filter-search"
      />
      <label className="filter-item">
        <span className="filter-label">{t("collections.filters.status")}</span>
        <select
          className="input select"
          value={view.status ?? ""}
          onChange={(event) => onChange({ status: (event.target.value || undefined) as OrderStatus | undefined })}
          data-testid="filter-status"
        >
          <option value="">{any}</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`orders.status.${status}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="filter-item">
        <span className="filter-label">{t("collections.filters.method")}</span>
        <select
          className="input select"
          value={view.method ?? ""}
          onChange={(event) => onChange({ method: (event.target.value || undefined) as PaymentMethod | undefined })}
          data-testid="filter-method"
        >
          <option value="">{any}</option>
          {ORDER_METHODS.map((method) => (
            <option key={method} value={method}>
              {t(`collections.method.${method}`)}
            </option>
          ))}
        </select>
      </label>
      {isOrderFiltered(view) ? (
        <Button variant="ghost" className="filter-clear" onClick={onClear} data-testid="filter-clear">
          {t("collections.filters.clear")}
        </Button>
      ) : null}
    </div>
  );
}
