import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { PagedTable } from "../../components/PagedTable";
import { useDebouncedValue } from "../../components/useDebouncedValue";
import type { CustomerStatus } from "../../protocol/wire";
import { CreateCustomerDialog } from "./CreateCustomerDialog";
import { CustomerRow } from "./CustomerRow";
import { customerUpsertsAtom } from "../../live/cache";
import { usePagedList } from "../../live/usePagedList";

const PAGE_SIZE = 25;

const STATUSES: CustomerStatus[] = ["active", "archived", "all"];

export function CustomersPage() {
  const { t } = useTranslation();
  const [searchInput, setSearchInput] = useState("");
  const search = useDebouncedValue(searchInput.trim(), 300);
  const [status, setStatus] = useState<CustomerStatus>("active");
  const [creating, setCreating] = useState(false);
  const list = usePagedList({
    kind: "customer",
    upserts: customerUpsertsAtom,
    key: JSON.stringify([search, status]),
    query: (cursor) => ({ t: "ListCustomers", search: search || undefined, status, cursor, limit: PAGE_SIZE }),
  });

  const newButton = (
    <Button variant="primary" onClick={() => setCreating(true)} needs="customers:write" data-testid="new-customer">
      {t("customers.new")}
    </Button>
  );

  return (
    <section className="page" data-testid="customers-page">
      <PageHeader title={t("customers.title")} subtitle={t("customers.subtitle")} actions={newButton} needs="customers:write" />
      <div className="toolbar">
        <input
          type="search"
          className="input toolbar-search"
          aria-label={t("customers.search")}
          placeholder={t("customers.searchPlaceholder")}
          value={searchInput}
          onChange={(event) => setSearchInput(event.target.value)}
          data-testid="customer-search"
        />
        <div className="segmented" role="radiogroup" aria-label={t("customers.status.label")}>
          {STATUSES.map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={status === value}
              className={status === value ? "segment segment-on" : "segment"}
              onClick={() => setStatus(value)}
              data-testid={`status-${value}`}
            >
              {t(`customers.status.${value}`)}
            </button>
          ))}
        </div>
      </div>
      <PagedTable
        list={list}
        testId="customer-table"
        empty={
          <EmptyState
            testId="customers-empty"
            title={search ? t("customers.noMatches") : t("customers.empty")}
            body={search ? undefined : t("customers.emptyHint")}
            action={search ? undefined : newButton}
          />
        }
        columns={
          <>
            <th scope="col">{t("customers.columns.name")}</th>
            <th scope="col">{t("customers.columns.email")}</th>
            <th scope="col" className="hide-sm">{t("customers.columns.cellphone")}</th>
            <th scope="col" className="hide-sm">{t("customers.columns.reference")}</th>
            <th scope="col">{t("customers.columns.status")}</th>
            <th scope="col" className="hide-md">{t("customers.columns.created")}</th>
          </>
        }
        row={(id) => (
          <CustomerRow key={id} id={id} status={status} />
        )}
        loadMoreLabel={t("customers.loadMore")}
        loadingMoreLabel={t("customers.loadingMore")}
      />
      <CreateCustomerDialog open={creating} onOpenChange={setCreating} />
    </section>
  );
}
