import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Link } from "../../components/placeLinks";
import { TestDataMarker } from "../../components/CollectionBadges";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/Spinner";
import { importAtom } from "../../live/cache";
import { useRecord } from "../../live/useRecord";
import type { Import, PaymentKind } from "../../protocol/wire";
import { ImportIssues } from "./ImportIssues";
import { ImportPayments } from "./ImportPayments";
import { ImportSummary } from "./ImportSummary";
import { importsListPath } from "./paths";
import "./imports.css";

type ImportPageProps = {
  kind: PaymentKind;
  /** What the app shows for an address that leads nowhere. */
  notFound: ReactNode;
};

/** One import: its summary and live progress, the rows it refused, the payments it made. */
export function ImportPage({ kind, notFound }: ImportPageProps) {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const view = useRecord(importAtom(id), { t: "GetImport", importId: id }, id);
  // An import of the other kind lives at the other list's address.
  const missing = (view.state === "error" && view.code === "not_found") || (view.state === "ready" && view.record.kind !== kind);
  if (missing) return <>{notFound}</>;

  return (
    <section className="page" data-testid="import-page">
      <Link to={importsListPath(kind)} className="back-link">
        ← {kind === "once" ? t("payments.backOnce") : t("payments.backRecurring")}
      </Link>
      {view.state === "loading" ? <PageSpinner label={t("app.loading")} /> : null}
      {view.state === "error" ? <EmptyState title={t(`errors.${view.code}`)} testId="import-error" /> : null}
      {view.state === "ready" ? <ImportDetail entry={view.record} /> : null}
    </section>
  );
}

function ImportDetail({ entry }: { entry: Import }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader
        title={t("imports.detail.title", { file: entry.fileName })}
        subtitle={t(entry.kind === "once" ? "imports.detail.subtitleOnce" : "imports.detail.subtitleRecurring")}
      />
      <div className="detail-meta">
        {entry.mode === "test" ? <TestDataMarker /> : null}
        <code className="cell-mono">{entry.id}</code>
      </div>
      <ImportSummary entry={entry} />
      <ImportIssues entry={entry} />
      <ImportPayments entry={entry} />
    </>
  );
}
