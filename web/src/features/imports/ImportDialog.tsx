import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "../../components/placeLinks";
import { Dialog } from "../../components/Dialog";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import { usePaymentMethodSettings } from "../../live/usePaymentMethodSettings";
import type { ImportPreview, ImportTemplate, PaymentKind, WireError } from "../../protocol/wire";
import { ChooseFileStep } from "./ChooseFileStep";
import { FileError } from "./FileError";
import { importPath, IMPORT_TEMPLATES } from "./paths";
import { PreviewStep, type ConfirmChoice } from "./PreviewStep";
import { ProgressBar } from "./ProgressBar";
import { formatBytes } from "./sizes";
import { uploadAndCheck } from "./upload";
import "./imports.css";

type ImportDialogProps = { kind: PaymentKind; open: boolean; onOpenChange: (open: boolean) => void };

type Step = { t: "choose" } | { t: "uploading"; sent: number; total: number } | { t: "preview"; preview: ImportPreview };

function wireErrorOf(failure: unknown): WireError {
  return failure instanceof LiveError ? failure.wire : { code: "internal" };
}

/** Import payments from a spreadsheet: choose a layout and a file, upload, check, confirm. */
export function ImportDialog({ kind, open, onOpenChange }: ImportDialogProps) {
  const { t, i18n } = useTranslation();
  const client = useLiveClient();
  const navigate = useNavigate();
  const settings = usePaymentMethodSettings();
  const enabled = settings.state === "ready" ? IMPORT_TEMPLATES.filter((template) => settings.settings.enabled.includes(template)) : [];
  const templates = enabled.length > 0 ? enabled : IMPORT_TEMPLATES;
  const [chosen, setChosen] = useState<ImportTemplate | undefined>();
  const template = chosen && templates.includes(chosen) ? chosen : templates[0];
  const [file, setFile] = useState<File | null>(null);
  const [step, setStep] = useState<Step>({ t: "choose" });
  const [error, setError] = useState<WireError | null>(null);
  const [confirming, setConfirming] = useState(false);
  // The upload the server holds for us, until it is confirmed or let go.
  const openUpload = useRef<string | null>(null);
  const attempt = useRef(0);

  const discard = () => {
    const uploadId = openUpload.current;
    openUpload.current = null;
    attempt.current += 1;
    if (uploadId) client.command({ t: "DiscardImport", uploadId }, { announce: false }).catch(() => undefined);
  };

  const discardRef = useRef(discard);
  useEffect(() => {
    discardRef.current = discard;
  });
  useEffect(() => () => discardRef.current(), []);

  async function upload() {
    if (!file) return;
    discard();
    const mine = attempt.current;
    const current = () => mine === attempt.current;
    setError(null);
    setStep({ t: "uploading", sent: 0, total: file.size });
    try {
      const preview = await uploadAndCheck(
        client,
        file,
        { kind, template },
        {
          onStarted: (uploadId) => {
            if (current()) openUpload.current = uploadId;
            else client.command({ t: "DiscardImport", uploadId }, { announce: false }).catch(() => undefined);
          },
          onProgress: (sent, total) => current() && setStep({ t: "uploading", sent, total }),
          cancelled: () => !current(),
        },
      );
      if (current() && preview) setStep({ t: "preview", preview });
    } catch (failure) {
      if (!current()) return;
      setError(wireErrorOf(failure));
      // The file input starts empty again: what it showed and what would be sent stay the same.
      setFile(null);
      setStep({ t: "choose" });
    }
  }

  async function confirm(preview: ImportPreview, choice: ConfirmChoice) {
    setConfirming(true);
    setError(null);
    try {
      const reply = await client.command({ t: "ConfirmImport", uploadId: preview.uploadId, ...choice }, { announce: false });
      if (reply.t !== "Committed" || !reply.id) throw new LiveError({ code: "internal" });
      openUpload.current = null;
      onOpenChange(false);
      navigate(importPath(kind, reply.id));
    } catch (failure) {
      setError(wireErrorOf(failure));
    } finally {
      setConfirming(false);
    }
  }

  function chooseAnother() {
    discard();
    setError(null);
    setFile(null);
    setStep({ t: "choose" });
  }

  function close(next: boolean) {
    if (!next) discard();
    onOpenChange(next);
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={kind === "once" ? t("imports.dialog.titleOnce") : t("imports.dialog.titleRecurring")}
      description={t("imports.dialog.description")}
      closeLabel={t("common.close")}
      testId="import-dialog"
      needs="imports:write"
    >
      {step.t === "choose" ? (
        <>
          {error ? <FileError error={error} /> : null}
          <ChooseFileStep
            kind={kind}
            templates={templates}
            template={template}
            onTemplate={setChosen}
            file={file}
            onFile={(picked) => {
              setFile(picked);
              setError(null);
            }}
            onUpload={() => void upload()}
            onCancel={() => close(false)}
          />
        </>
      ) : null}
      {step.t === "uploading" ? (
        <div className="import-uploading" data-testid="import-uploading">
          <p>{step.sent < step.total ? t("imports.dialog.uploading", { name: file?.name ?? "" }) : t("imports.dialog.checking")}</p>
          <ProgressBar
            value={step.sent}
            max={step.total}
            label={t("imports.dialog.uploadProgress")}
            text={t("imports.dialog.bytesSent", { sent: formatBytes(step.sent, i18n.language), total: formatBytes(step.total, i18n.language) })}
            testId="import-upload-progress"
          />
        </div>
      ) : null}
      {step.t === "preview" ? (
        <PreviewStep preview={step.preview} confirming={confirming} error={error} onConfirm={(choice) => void confirm(step.preview, choice)} onChooseAnother={chooseAnother} />
      ) : null}
    </Dialog>
  );
}
