import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import type { Import } from "../../protocol/wire";
import { issuePageOf } from "./issuePages";
import { IssuesTable } from "./IssuesTable";
import { useFileDownload } from "../../components/useFileDownload";
import { useIssuePages } from "./useIssuePages";

const PAGE_SIZE = 50;

/** The rows that were not imported and why; rows that fail while writing join the list. */
export function ImportIssues({ entry }: { entry: Import }) {
  const { t } = useTranslation();
  const { id } = entry;
  const pageAt = useCallback((offset: number) => ({ t: "ListImportIssues" as const, importId: id, offset, limit: PAGE_SIZE }), [id]);
  // A row that fails while being written adds a problem: read the list again from the top.
  const issues = useIssuePages({ key: `${id}:${entry.failed}:${entry.skipped}`, queryAt: pageAt, page: issuePageOf });
  const issuesQuery = useCallback((offset: number) => ({ t: "DownloadImportIssues" as const, id, offset }), [id]);
  const download = useFileDownload(issuesQuery);
  const any = entry.invalid + entry.failed + entry.skipped > 0;
  return (
    <section className="card import-section" aria-labelledby="import-issues-title" data-testid="import-issues-card">
      <div className="import-section-head">
        <h2 className="card-title" id="import-issues-title">
          {t("imports.issues.title")}
        </h2>
        {any ? (
          <Button variant="ghost" className="link-button" onClick={download.run} busy={download.busy} data-testid="import-download-issues">
            {t("imports.issues.download")}
          </Button>
        ) : null}
      </div>
      {download.error ? <Alert>{t(`errors.${download.error}`)}</Alert> : null}
      <IssuesTable list={issues} title={t("imports.issues.title")} />
    </section>
  );
}
