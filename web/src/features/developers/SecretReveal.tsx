import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";

type SecretRevealProps = { label: string; secret: string; hint: string; testId: string };

/** A secret shown this once, with a copy button; it is never shown again. */
export function SecretReveal({ label, secret, hint, testId }: SecretRevealProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <div className="secret-reveal" data-testid={testId}>
      <p className="field-label">{label}</p>
      <div className="secret-row">
        <code className="secret-value" data-testid={`${testId}-value`}>
          {secret}
        </code>
        <Button variant="ghost" onClick={() => void copy()} data-testid={`${testId}-copy`}>
          {copied === "copied" ? t("developers.copied") : t("developers.copy")}
        </Button>
      </div>
      <p className="field-hint" role="status">
        {copied === "failed" ? t("developers.copyFailed") : hint}
      </p>
    </div>
  );
}
