import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { Spinner } from "../../components/Spinner";
import { paymentUpsertsAtom } from "../../live/cache";
import { usePagedList } from "../../live/usePagedList";
import type { Import } from "../../protocol/wire";
import { ImportPaymentRow } from "./ImportPaymentRow";

const PAGE_SIZE = 25;

/** The payments the import wrote so far, in the order of its rows; each landed batch brings more. */
export function ImportPayments({ entry }: { entry: Import }) {
  const { t } = useTranslation();
  const { id, kind } = entry;
  const list = usePagedList({
    kind: "payment",
    upserts: paymentUpsertsAtom,
    key: `import-payments:${id}`,
    query: (cursor) => ({ t: "ListPayments", kind, filter: { importId: id }, sort: "oldest", cursor, limit: PAGE_SIZE }),
  });
  return (
    <section className="card import-section" aria-labelledby="import-payments-title" data-testid="import-payments">
      <h2 className="card-title" id="import-payments-title">
        {t("imports.payments.title")}
      </h2>
      {list.error ? <Alert>{t(`errors.${list.error}`)}</Alert> : null}
      {list.loading ? <Spinner label={t("app.loading")} /> : null}
      {!list.loading && !list.error && list.ids.length === 0 ? (
        <p className="cell-muted" data-testid="import-payments-empty">
          {entry.status === "committing" ? t("imports.payments.waiting") : t("imports.payments.none")}
        </p>
      ) : null}
      {list.ids.length > 0 ? (
        <div className="table-scroll">
          <table className="table" aria-labelledby="import-payments-title">
            <thead>
              <tr>
                <th scope="col" className="cell-amount">{t("imports.issues.row")}</th>
                <th scope="col">{t("payments.columns.customer")}</th>
                <th scope="col" className="cell-amount">{t("payments.columns.amount")}</th>
                <th scope="col">{t("payments.columns.status")}</th>
              </tr>
            </thead>
            <tbody>
              {list.ids.map((paymentId) => (
                <ImportPaymentRow key={paymentId} id={paymentId} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {list.hasMore ? (
        <div className="load-more">
          <Button onClick={list.loadMore} busy={list.loadingMore} data-testid="import-payments-more">
            {t("payments.loadMore")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
