import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { importUpsertsAtom } from "../../live/cache";
import { usePagedList } from "../../live/usePagedList";
import type { PaymentKind } from "../../protocol/wire";
import { ImportRow } from "./ImportRow";
import "./imports.css";

const PAGE_SIZE = 5;

/** The spreadsheets imported into this list, newest first, following each commit live. */
export function ImportsList({ kind }: { kind: PaymentKind }) {
  const { t } = useTranslation();
  const list = usePagedList({
    kind: "import",
    upserts: importUpsertsAtom,
    key: `imports:${kind}`,
    query: (cursor) => ({ t: "ListImports", kind, cursor, limit: PAGE_SIZE }),
  });
  if (list.loading || (list.ids.length === 0 && !list.error)) return null;
  const title = t("imports.list.title");
  return (
    <section className="card imports-card" aria-labelledby={`imports-title-${kind}`} data-testid="imports-list">
      <h2 className="card-title" id={`imports-title-${kind}`}>
        {title}
      </h2>
      {list.error ? <Alert>{t(`errors.${list.error}`)}</Alert> : null}
      {list.ids.length > 0 ? (
        <div className="table-scroll">
          <table className="table" aria-labelledby={`imports-title-${kind}`}>
            <thead>
              <tr>
                <th scope="col">{t("imports.list.file")}</th>
                <th scope="col" className="hide-sm">{t("imports.list.when")}</th>
                <th scope="col">{t("imports.list.status")}</th>
                <th scope="col" className="cell-amount">{t("imports.list.committed")}</th>
                <th scope="col" className="cell-amount hide-sm">{t("imports.list.invalid")}</th>
              </tr>
            </thead>
            <tbody>
              {list.ids.map((id) => (
                <ImportRow key={id} id={id} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {list.hasMore ? (
        <div className="load-more">
          <Button onClick={list.loadMore} busy={list.loadingMore} data-testid="imports-more">
            {t("imports.list.more")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
