import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import type { PayPage } from "../../protocol/wire";
import { downloadHref, payPageUrl, qrFileName, qrPngDataUrl, qrSvg } from "./share";

type ShareDialogProps = { page: PayPage; open: boolean; onOpenChange: (open: boolean) => void };

/** The page's link to copy and its QR code to show or download. */
export function ShareDialog({ page, open, onOpenChange }: ShareDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="sm"
      title={t("payPages.share.title", { title: page.title })}
      description={t("payPages.share.body")}
      closeLabel={t("common.close")}
      testId="share-dialog"
    >
      <SharePanel page={page} />
    </Dialog>
  );
}

type Copied = "idle" | "copied" | "failed";

function SharePanel({ page }: { page: PayPage }) {
  const { t } = useTranslation();
  const url = payPageUrl(window.location.origin, page.id);
  const [svg, setSvg] = useState<{ url: string; text: string } | null>(null);
  const [copied, setCopied] = useState<Copied>("idle");

  useEffect(() => {
    let current = true;
    // Drawn in the browser: the link never goes to a QR service.
    void qrSvg(url).then((text) => {
      if (current) setSvg({ url, text });
    });
    return () => {
      current = false;
    };
  }, [url]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  const svgHref = svg?.url === url ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.text)}` : null;

  return (
    <div className="share-panel">
      {!page.active ? <Alert tone="warning">{t("payPages.share.inactive")}</Alert> : null}
      <div className="share-link">
        <input className="input cell-mono" readOnly value={url} aria-label={t("payPages.share.link")} onFocus={(event) => event.target.select()} data-testid="share-link" />
        <Button onClick={() => void copy()} data-testid="share-copy">
          {copied === "copied" ? t("payPages.share.copied") : t("payPages.share.copy")}
        </Button>
      </div>
      {copied === "failed" ? <p className="field-hint">{t("payPages.share.copyFailed")}</p> : null}
      <div className="share-qr">
        {svgHref ? <img src={svgHref} alt={t("payPages.share.qrAlt", { title: page.title })} width={200} height={200} data-testid="share-qr" /> : <div className="share-qr-blank" />}
      </div>
      <div className="form-actions share-actions">
        <a className="btn btn-ghost" href={url} target="_blank" rel="noreferrer" data-testid="share-open">
          {t("payPages.share.open")}
        </a>
        <Button disabled={!svgHref} onClick={() => svgHref && downloadHref(svgHref, qrFileName(page.title, page.id, "svg"))} data-testid="share-svg">
          {t("payPages.share.downloadSvg")}
        </Button>
        <Button onClick={() => void qrPngDataUrl(url).then((png) => downloadHref(png, qrFileName(page.title, page.id, "png")))} data-testid="share-png">
          {t("payPages.share.downloadPng")}
        </Button>
      </div>
    </div>
  );
}
