import { PAY_PAGE_LOGO_MAX_BYTES } from "../../protocol/wire";
import type { ErrorCode } from "../../protocol/wire";

export { qrPngDataUrl, qrSvg } from "../../components/qr";

/** The public page a payer opens; served by the backend, not by this app. */
export function payPageUrl(origin: string, pageId: string): string {
  return `${origin.replace(/\/+$/, "")}/pay/${encodeURIComponent(pageId)}`;
}

/** The page's logo; the version changes with every upload so browsers fetch the new one. */
export function payPageLogoUrl(pageId: string, logoVersion: number): string {
  return `/pay/${encodeURIComponent(pageId)}/logo?v=${logoVersion}`;
}

/** A file name for a page's QR code download: its title in plain letters, or its id. */
export function qrFileName(title: string, pageId: string, extension: "png" | "svg"): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return `${slug || pageId}-qr.${extension}`;
}

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"];

/** What is wrong with a chosen logo before it is sent, if the browser can tell. */
export function logoProblem(file: { size: number; type: string }): ErrorCode | null {
  if (file.type && !IMAGE_TYPES.includes(file.type)) return "invalid_image";
  if (file.size === 0) return "invalid_image";
  if (file.size > PAY_PAGE_LOGO_MAX_BYTES) return "image_too_large";
  return null;
}

/** Starts a download of a file made in the browser. */
export function downloadHref(href: string, fileName: string): void {
  const link = document.createElement("a");
  link.href = href;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
}
