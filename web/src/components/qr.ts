import QRCode from "qrcode";

// Shared by the pay pages' share dialog and the e-mandate requests' QR code: drawn in the
// browser, so a payer's link never goes to a QR service.

// M corrects about 15 % damage: enough for a printed poster, still a small code for a short link.
const QR_OPTIONS = { errorCorrectionLevel: "M", margin: 2 } as const;

/** The link's QR code as an SVG document (dark on white, so every scanner reads it). */
export function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { ...QR_OPTIONS, type: "svg", color: { dark: "#000000", light: "#ffffff" } });
}

/** The link's QR code as a PNG data URL of about `width` pixels. */
export function qrPngDataUrl(url: string, width = 512): Promise<string> {
  return QRCode.toDataURL(url, { ...QR_OPTIONS, width, color: { dark: "#000000", light: "#ffffff" } });
}

