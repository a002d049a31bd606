import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { formatDateTime } from "../../components/format";
import { doneRows } from "../../live/importProgress";
import type { Import } from "../../protocol/wire";
import { ImportStatusBadge } from "./ImportStatusBadge";
import { importPath } from "./paths";
import { ProgressBar } from "./ProgressBar";

type CountKey = "rows" | "valid" | "invalid" | "committed" | "failed" | "skipped";

/** Who imported what and when, and how far the commit has come. */
export function ImportSummary({ entry }: { entry: Import }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const details: [string, ReactNode][] = [
    [t("imports.detail.file"), entry.fileName],
    [t("imports.detail.template"), t(`collections.method.${entry.template}`)],
    [t("imports.detail.by"), entry.createdByName],
    [t("imports.detail.when"), formatDateTime(entry.createdAt, language)],
    [t("imports.detail.finished"), entry.finishedAt ? formatDateTime(entry.finishedAt, language) : "—"],
    // What the user chose about repeats when confirming, kept with the import.
    [t("imports.detail.repeats"), entry.includeDuplicates ? t("imports.detail.repeatsIncluded") : t("imports.detail.repeatsSkipped")],
  ];
  if (entry.duplicateOf) {
    const earlier = (
      <Link to={importPath(entry.kind, entry.duplicateOf)} data-testid="import-same-file-as">
        {entry.duplicateOf}
      </Link>
    );
    details.push([t("imports.detail.sameFileAs"), earlier]);
  }
  const counts: [CountKey, number][] = [
    ["rows", entry.rows],
    ["valid", entry.valid],
    ["invalid", entry.invalid],
    ["committed", entry.committed],
    ["failed", entry.failed],
    ["skipped", entry.skipped],
  ];
  const done = doneRows(entry);
  return (
    <div className="detail-grid import-summary" data-testid="import-summary">
      <div className="card">
        <h2 className="card-title">{t("imports.detail.about")}</h2>
        <dl className="detail-list">
          {details.map(([label, value]) => (
            <div key={label} className="detail-row">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
      <div className="card">
        <div className="import-section-head">
          <h2 className="card-title">{t("imports.detail.progress")}</h2>
          <ImportStatusBadge entry={entry} />
        </div>
        <ProgressBar
          value={done}
          max={entry.valid}
          label={t("imports.detail.progress")}
          text={t("imports.detail.doneOf", { done, valid: entry.valid })}
          testId="import-progress"
        />
        <dl className="import-counts import-counts-wide">
          {counts.map(([key, value]) => (
            <div key={key} className={`import-count import-count-${key}`} data-testid={`import-count-${key}`} data-value={value}>
              <dt>{t(`imports.counts.${key}`)}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
