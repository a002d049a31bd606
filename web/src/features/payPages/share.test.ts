import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { PAY_PAGE_LOGO_MAX_BYTES } from "../../protocol/wire";
import { logoProblem, payPageLogoUrl, payPageUrl, qrFileName, qrPngDataUrl, qrSvg } from "./share";
import { pageState } from "./pageView";
import { samplePayPage } from "../../live/testing";

describe("sharing a pay page", () => {
  it("links to the public page on this origin", () => {
    expect(payPageUrl("https://dash.example.co.za", "pg_01ABC")).toBe("https://dash.example.co.za/pay/pg_01ABC");
    expect(payPageUrl("http://127.0.0.1:8080/", "pg_1")).toBe("http://127.0.0.1:8080/pay/pg_1");
    expect(payPageLogoUrl("pg_1", 1795000000000)).toBe("/pay/pg_1/logo?v=1795000000000");
  });

  it("draws a QR code of the link as SVG and PNG", async () => {
    const url = "https://dash.example.co.za/pay/pg_01ABC";
    const svg = await qrSvg(url);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain('fill="#ffffff"');
    // The same modules as the library's own encoding of the link: nothing else is in the code.
    const size = QRCode.create(url, { errorCorrectionLevel: "M" }).modules.size;
    expect(svg).toContain(`viewBox="0 0 ${size + 4} ${size + 4}"`);
    expect(await qrPngDataUrl(url, 128)).toMatch(/^data:image\/png;base64,/);
  });

  it("names downloads after the page in plain letters", () => {
    expect(qrFileName("Karoo Gym — Dagpas ê!", "pg_1", "png")).toBe("karoo-gym-dagpas-e-qr.png");
    expect(qrFileName("   ", "pg_1", "svg")).toBe("pg_1-qr.svg");
  });

  it("checks a logo's type and size before it is sent", () => {
    expect(logoProblem({ size: 2_000, type: "image/png" })).toBeNull();
    expect(logoProblem({ size: 2_000, type: "image/gif" })).toBe("invalid_image");
    expect(logoProblem({ size: PAY_PAGE_LOGO_MAX_BYTES + 1, type: "image/webp" })).toBe("image_too_large");
    expect(logoProblem({ size: 0, type: "image/jpeg" })).toBe("invalid_image");
  });

  it("says whether a payer could pay on the page now", () => {
    expect(pageState(samplePayPage(), "2026-03-10")).toBe("active");
    expect(pageState(samplePayPage({ active: false }), "2026-03-10")).toBe("inactive");
    expect(pageState(samplePayPage({ expiresOn: "2026-03-09" }), "2026-03-10")).toBe("expired");
    expect(pageState(samplePayPage({ maxUses: 3, uses: 3 }), "2026-03-10")).toBe("used_up");
  });
});
