import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "../../components/Dialog";
import type { EMandateRequest } from "../../protocol/wire";
import { qrSvg } from "../../components/qr";

type EMandateQrDialogProps = { request: EMandateRequest; link: string; open: boolean; onOpenChange: (open: boolean) => void };

/**
 * The request's link as a QR code, for a payer at the counter: they scan it
 * with their phone and sign there. Drawn in the browser with the same
 * `qrcode` library as the pay pages' share dialog, so the link never goes to
 * a QR service and the payer's page stays free of images it does not need.
 */
export function EMandateQrDialog({ request, link, open, onOpenChange }: EMandateQrDialogProps) {
  const { t } = useTranslation();
  const [svg, setSvg] = useState<{ link: string; text: string } | null>(null);

  useEffect(() => {
    if (!open) return;
    let current = true;
    void qrSvg(link).then((text) => {
      if (current) setSvg({ link, text });
    });
    return () => {
      current = false;
    };
  }, [link, open]);

  const href = svg?.link === link ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.text)}` : null;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="sm"
      title={t("eMandates.qr.title", { name: request.name })}
      description={t("eMandates.qr.body")}
      closeLabel={t("common.close")}
      testId="e-mandate-qr-dialog"
    >
      <div className="share-qr">
        {href ? <img src={href} alt={t("eMandates.qr.alt", { name: request.name })} width={200} height={200} data-testid="e-mandate-qr" data-link={link} /> : <div className="share-qr-blank" />}
      </div>
    </Dialog>
  );
}
