import { useTranslation } from "react-i18next";
import { RELATED_PAGE_SIZE } from "../../components/listView";
import { RelatedList } from "../../components/RelatedList";
import { mandateUpsertsAtom } from "../../live/cache";
import { usePagedList } from "../../live/usePagedList";
import { MandateColumns, MandateRow } from "./MandateRow";

/** A customer's current mandates, newest first, on the customer's page. */
export function CustomerMandates({ customerId }: { customerId: string }) {
  const { t } = useTranslation();
  const list = usePagedList({
    kind: "mandate",
    upserts: mandateUpsertsAtom,
    key: customerId,
    query: (cursor) => ({
      t: "ListMandates",
      filter: { customerId, eMandatesOnly: false, archived: false },
      sort: "newest",
      cursor,
      limit: RELATED_PAGE_SIZE,
    }),
  });
  return (
    <RelatedList
      title={t("mandates.title")}
      testId="customer-mandates"
      list={list}
      tableTestId="mandate-table"
      columns={<MandateColumns />}
      row={(id) => <MandateRow key={id} id={id} archived={false} />}
      emptyText={t("customers.related.noMandates")}
      loadMoreLabel={t("customers.loadMore")}
      loadingMoreLabel={t("customers.loadingMore")}
    />
  );
}
