import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";

type BackupCodesPanelProps = { codes: string[]; email: string; onSaved: () => void };

/** The fresh backup codes, shown once, with ways to keep them. */
export function BackupCodesPanel({ codes, email, onSaved }: BackupCodesPanelProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const text = `${t("profile.backupCodes.fileHeader", { email })}\n\n${codes.join("\n")}\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      // No clipboard (insecure page or refused): the codes stay on screen and can be downloaded.
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "paydesk-backup-codes.txt";
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <div className="backup-codes" data-testid="backup-codes">
      <h3 className="backup-codes-title">{t("profile.backupCodes.title")}</h3>
      <p className="field-hint">{t("profile.backupCodes.body")}</p>
      <ol className="backup-codes-list">
        {codes.map((code) => (
          <li key={code}>
            <code data-testid="backup-code">{code}</code>
          </li>
        ))}
      </ol>
      <div className="form-actions form-actions-start">
        <Button onClick={copy} data-testid="copy-backup-codes">
          {copied ? t("profile.backupCodes.copied") : t("profile.backupCodes.copy")}
        </Button>
        <Button onClick={download} data-testid="download-backup-codes">
          {t("profile.backupCodes.download")}
        </Button>
        <Button variant="primary" onClick={onSaved} data-testid="backup-codes-saved">
          {t("profile.backupCodes.saved")}
        </Button>
      </div>
    </div>
  );
}
