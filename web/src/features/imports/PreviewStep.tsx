import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import type { ErrorCode, ImportPreview, WireError } from "../../protocol/wire";
import { IssuesTable } from "./IssuesTable";
import { DuplicateFileWarning, PreviewDuplicates } from "./PreviewDuplicates";
import { previewIssuePageOf, previewIssues } from "./issuePages";
import { useFileDownload } from "../../components/useFileDownload";
import { useIssuePages } from "./useIssuePages";
import { useErrorText } from "../../components/useMay";

/** What the user chose about repeats (`ConfirmImport`). */
export type ConfirmChoice = { includeDuplicates: boolean; allowDuplicateFile: boolean };

type PreviewStepProps = {
  preview: ImportPreview;
  confirming: boolean;
  error: WireError | null;
  onConfirm: (choice: ConfirmChoice) => void;
  onChooseAnother: () => void;
};

/** What the file holds before anything is written: counts, problems, and the choice to go on. */
export function PreviewStep({ preview, confirming, error, onConfirm, onChooseAnother }: PreviewStepProps) {
  const { t } = useTranslation();
  const { uploadId } = preview;
  const pageAt = useCallback((offset: number) => ({ t: "GetImportPreview" as const, uploadId, offset }), [uploadId]);
  // One first page per preview, so the list is not reset on every render.
  const first = useMemo(() => previewIssues(preview), [preview]);
  const issues = useIssuePages({ key: uploadId, queryAt: pageAt, page: previewIssuePageOf, initial: first });
  const issuesQuery = useCallback((offset: number) => ({ t: "DownloadImportIssues" as const, id: uploadId, offset }), [uploadId]);
  const download = useFileDownload(issuesQuery);
  // Repeats are left out unless the user says otherwise, each time.
  const [includeDuplicates, setIncludeDuplicates] = useState(false);
  const [allowDuplicateFile, setAllowDuplicateFile] = useState(false);
  const toImport = includeDuplicates ? preview.valid : preview.valid - preview.duplicates;
  const blockedByFile = preview.duplicateOf !== undefined && !allowDuplicateFile;

  const counts: [string, number, string][] = [
    ["rows", preview.rows, t("imports.counts.rows")],
    ["valid", preview.valid, t("imports.counts.valid")],
    ["invalid", preview.invalid, t("imports.counts.invalid")],
    ["duplicates", preview.duplicates, t("imports.counts.duplicates")],
  ];

  return (
    <div className="import-preview" data-testid="import-preview">
      <p className="import-file-name">
        <span className="cell-muted">{t("imports.dialog.checked")}</span> <strong data-testid="import-file-name">{preview.fileName}</strong>
      </p>
      {preview.duplicateOf ? (
        <DuplicateFileWarning earlier={preview.duplicateOf} allow={allowDuplicateFile} onAllow={setAllowDuplicateFile} disabled={confirming} />
      ) : null}
      <dl className="import-counts">
        {counts.map(([key, value, label]) => (
          <div key={key} className={`import-count import-count-${key}`} data-testid={`import-count-${key}`} data-value={value}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {preview.invalid > 0 ? (
        <section aria-labelledby="import-preview-issues">
          <div className="import-section-head">
            <h3 className="card-title" id="import-preview-issues">
              {t("imports.issues.title")}
            </h3>
            <Button variant="ghost" className="link-button" onClick={download.run} busy={download.busy} data-testid="import-download-issues">
              {t("imports.issues.download")}
            </Button>
          </div>
          {download.error ? <Alert>{t(`errors.${download.error}`)}</Alert> : null}
          <IssuesTable list={issues} title={t("imports.issues.title")} />
        </section>
      ) : (
        <Alert tone="success">{t("imports.dialog.allValid")}</Alert>
      )}
      {preview.duplicates > 0 ? (
        <PreviewDuplicates preview={preview} include={includeDuplicates} onInclude={setIncludeDuplicates} disabled={confirming} />
      ) : null}
      {error ? <ImportConfirmError code={error.code} /> : null}
      {preview.valid === 0 ? <Alert tone="info">{t("imports.dialog.nothingValid")}</Alert> : null}
      {preview.valid > 0 && toImport === 0 ? <Alert tone="info">{t("imports.dialog.nothingNew")}</Alert> : null}
      <div className="form-actions">
        <Button onClick={onChooseAnother} disabled={confirming} data-testid="import-choose-another">
          {t("imports.dialog.chooseAnother")}
        </Button>
        <Button
          variant="primary"
          onClick={() => onConfirm({ includeDuplicates, allowDuplicateFile })}
          busy={confirming}
          disabled={toImport === 0 || blockedByFile}
          needs="imports:write"
          data-testid="import-confirm"
        >
          {t("imports.dialog.confirm", { count: toImport })}
        </Button>
      </div>
    </div>
  );
}

/** Why the import was not confirmed; a refusal by role names the role. */
function ImportConfirmError({ code }: { code: ErrorCode }) {
  const text = useErrorText("imports:write");
  return <Alert testId="import-confirm-error">{text(code)}</Alert>;
}
