import { useCallback, useId, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { SelectField } from "../../components/Field";
import type { ImportTemplate, PaymentKind } from "../../protocol/wire";
import { IMPORT_FILE_TYPES } from "./paths";
import { useFileDownload } from "../../components/useFileDownload";

type ChooseFileStepProps = {
  kind: PaymentKind;
  templates: readonly ImportTemplate[];
  template: ImportTemplate;
  onTemplate: (template: ImportTemplate) => void;
  file: File | null;
  onFile: (file: File | null) => void;
  onUpload: () => void;
  onCancel: () => void;
};

/** Which layout, its template, and the file to check. */
export function ChooseFileStep({ kind, templates, template, onTemplate, file, onFile, onUpload, onCancel }: ChooseFileStepProps) {
  const { t } = useTranslation();
  const fileId = useId();
  const templateQuery = useCallback((offset: number) => ({ t: "DownloadImportTemplate" as const, template, kind, offset }), [template, kind]);
  const download = useFileDownload(templateQuery);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (file) onUpload();
  }

  return (
    <form className="form" onSubmit={submit} noValidate data-testid="import-choose">
      <SelectField
        label={t("imports.dialog.method")}
        value={template}
        onChange={(event) => onTemplate(event.target.value as ImportTemplate)}
        options={templates.map((value) => ({ value, label: t(`collections.method.${value}`) }))}
        data-testid="import-template"
      />
      <div className="import-template-link">
        <Button variant="ghost" className="link-button" onClick={download.run} busy={download.busy} data-testid="import-download-template">
          {t("imports.dialog.downloadTemplate", { method: t(`collections.method.${template}`) })}
        </Button>
        <p className="field-hint">{t(kind === "once" ? "imports.dialog.templateHintOnce" : "imports.dialog.templateHintRecurring")}</p>
      </div>
      {download.error ? <Alert>{t(`errors.${download.error}`)}</Alert> : null}
      <div className="field">
        <span className="field-label" id={`${fileId}-label`}>
          {t("imports.dialog.file")}
        </span>
        <div className="import-file-picker">
          <input
            id={fileId}
            type="file"
            className="file-input"
            accept={IMPORT_FILE_TYPES}
            onChange={(event) => onFile(event.target.files?.[0] ?? null)}
            aria-labelledby={`${fileId}-label`}
            aria-describedby={`${fileId}-chosen ${fileId}-hint`}
            data-testid="import-file"
          />
          <label htmlFor={fileId} className="btn btn-secondary">
            {t("imports.dialog.chooseFile")}
          </label>
          <span id={`${fileId}-chosen`} className={file ? "import-file-chosen" : "import-file-chosen cell-muted"} data-testid="import-file-chosen">
            {file ? file.name : t("imports.dialog.noFile")}
          </span>
        </div>
        <p id={`${fileId}-hint`} className="field-hint">
          {t("imports.dialog.fileHint")}
        </p>
      </div>
      <div className="form-actions">
        <Button onClick={onCancel}>{t("imports.dialog.cancel")}</Button>
        <Button type="submit" variant="primary" disabled={!file} needs="imports:write" data-testid="import-upload">
          {t("imports.dialog.upload")}
        </Button>
      </div>
    </form>
  );
}
