import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { CheckboxField } from "../../components/CheckboxField";
import { formatDateTime } from "../../components/format";
import type { Import, ImportPreview } from "../../protocol/wire";
import { issuePageOf } from "./issuePages";
import { IssuesTable } from "./IssuesTable";
import { importPath } from "./paths";
import { useIssuePages } from "./useIssuePages";

type DuplicateFileProps = {
  earlier: Import;
  allow: boolean;
  onAllow: (allow: boolean) => void;
  disabled: boolean;
};

/** The same file was imported before: say when and by whom, and import it again only if asked to. */
export function DuplicateFileWarning({ earlier, allow, onAllow, disabled }: DuplicateFileProps) {
  const { t, i18n } = useTranslation();
  const text = t("imports.dialog.duplicateFile", {
    file: earlier.fileName,
    date: formatDateTime(earlier.createdAt, i18n.language),
    name: earlier.createdByName,
  });
  return (
    <div className="import-duplicate-file" data-testid="import-duplicate-file">
      <Alert tone="warning" testId="import-duplicate-file-warning">
        {text}{" "}
        <Link to={importPath(earlier.kind, earlier.id)} data-testid="import-duplicate-file-link">
          {t("imports.dialog.openEarlier")}
        </Link>
      </Alert>
      <CheckboxField
        label={t("imports.dialog.allowDuplicateFile")}
        checked={allow}
        onChange={onAllow}
        disabled={disabled}
        testId="import-allow-duplicate-file"
      />
    </div>
  );
}

type PreviewDuplicatesProps = {
  preview: ImportPreview;
  include: boolean;
  onInclude: (include: boolean) => void;
  disabled: boolean;
};

/** Rows that repeat a payment or an earlier row, read a page at a time; skipped unless included. */
export function PreviewDuplicates({ preview, include, onInclude, disabled }: PreviewDuplicatesProps) {
  const { t } = useTranslation();
  const { uploadId } = preview;
  const pageAt = useCallback((offset: number) => ({ t: "GetImportPreviewDuplicates" as const, uploadId, offset }), [uploadId]);
  const first = useMemo(
    () => ({ items: preview.duplicateRows, total: preview.duplicates, nextOffset: preview.duplicatesNextOffset }),
    [preview],
  );
  const rows = useIssuePages({ key: `${uploadId}:duplicates`, queryAt: pageAt, page: issuePageOf, initial: first });
  return (
    <section className="import-preview-duplicates" aria-labelledby="import-preview-duplicates" data-testid="import-preview-duplicates">
      <h3 className="card-title" id="import-preview-duplicates">
        {t("imports.duplicates.title")}
      </h3>
      <p className="cell-muted import-duplicates-hint">{t("imports.duplicates.hint")}</p>
      <IssuesTable list={rows} title={t("imports.duplicates.title")} testId="import-duplicates" wrapColumn />
      <CheckboxField
        label={t("imports.dialog.includeDuplicates", { count: preview.duplicates })}
        checked={include}
        onChange={onInclude}
        disabled={disabled}
        testId="import-include-duplicates"
      />
    </section>
  );
}
