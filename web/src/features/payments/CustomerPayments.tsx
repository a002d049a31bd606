import { useTranslation } from "react-i18next";
import { RELATED_PAGE_SIZE } from "../../components/listView";
import { RelatedList } from "../../components/RelatedList";
import { paymentUpsertsAtom } from "../../live/cache";
import { usePagedList } from "../../live/usePagedList";
import type { PaymentKind } from "../../protocol/wire";
import { PaymentColumns, PaymentRow } from "./PaymentRow";

/** A customer's payments of one kind, newest first, on the customer's page. */
export function CustomerPayments({ customerId, kind }: { customerId: string; kind: PaymentKind }) {
  const { t } = useTranslation();
  const list = usePagedList({
    kind: "payment",
    upserts: paymentUpsertsAtom,
    key: `${kind}\u0000${customerId}`,
    query: (cursor) => ({ t: "ListPayments", kind, filter: { customerId }, sort: "newest", cursor, limit: RELATED_PAGE_SIZE }),
  });
  return (
    <RelatedList
      title={kind === "once" ? t("payments.onceTitle") : t("payments.recurringTitle")}
      testId={`customer-payments-${kind}`}
      list={list}
      tableTestId="payment-table"
      columns={<PaymentColumns kind={kind} />}
      row={(id) => <PaymentRow key={id} id={id} />}
      emptyText={t("customers.related.noPayments")}
      loadMoreLabel={t("payments.loadMore")}
      loadingMoreLabel={t("payments.loadingMore")}
    />
  );
}
