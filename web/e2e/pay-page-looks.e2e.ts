import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, shoot, type Session } from "./browser";
import { signUpFresh } from "./flows";
import { PayPagesPage, type PayPageFields } from "./pages/CommercePages";
import { TestMode } from "./pages/DashboardPages";
import { PublicPayPage } from "./pages/PublicPayPage";
import { Shell } from "./pages/Shell";

const SIZES = {
  phone: { width: 360, height: 740 },
  desktop: { width: 1280, height: 800 },
} as const;

const LOOKS = [
  { language: "en", scheme: "light", locale: "en-ZA", bank: "Pay by bank", threeDs: "Confirm with your bank", approve: "Approve", paid: "Payment successful" },
  { language: "afr", scheme: "dark", locale: "af-ZA", bank: "Betaal per bank", threeDs: "Bevestig met jou bank", approve: "Keur goed", paid: "Betaling suksesvol" },
] as const;

async function makePage(pages: PayPagesPage, fields: PayPageFields, payerChooses: { min: string; max: string } | null): Promise<string> {
  await pages.startNew();
  await pages.fill(fields);
  if (payerChooses) {
    await pages.dialog().getByTestId("page-amount-mode-payer_chosen").click();
    await pages.dialog().getByTestId("page-min-input").fill(payerChooses.min);
    await pages.dialog().getByTestId("page-max-input").fill(payerChooses.max);
  }
  await pages.chooseMethods(["card", "instant_eft"]);
  await pages.submitAndClose();
  const row = pages.row(fields.title ?? "");
  await row.waitFor();
  return (await row.getAttribute("data-page-id")) ?? "";
}

/** Each field a payer fills is named by a label, and each marked field points at its message. */
async function checkFieldsAreTied(page: Page): Promise<void> {
  const loose = await page.evaluate(() => {
    const problems: string[] = [];
    for (const field of document.querySelectorAll<HTMLElement>("form input:not([type=hidden]), form select")) {
      if (!field.id || !document.querySelector(`label[for="${field.id}"]`)) problems.push(`no label: ${field.getAttribute("name")}`);
      if (field.getAttribute("aria-invalid") === "true") {
        const ids = (field.getAttribute("aria-describedby") ?? "").split(/\s+/);
        if (!ids.some((id) => document.getElementById(id)?.classList.contains("error"))) problems.push(`no message: ${field.getAttribute("name")}`);
      }
    }
    return problems;
  });
  expect(loose).toEqual([]);
}

describe("the public pay page in both languages, colour schemes and sizes", () => {
  let merchant: Session;
  let dayPass = "";
  let donation = "";

  beforeAll(async () => {
    merchant = await openBrowser();
    const tab = await merchant.newPage();
    await signUpFresh(tab, "pay-looks");
    // The published test cards pay test pages only: a live page refuses them.
    await new TestMode(tab).switchOn();
    const pages = new PayPagesPage(tab);
    await pages.open();
    await new Shell(tab).waitUntilLive();
    dayPass = await makePage(
      pages,
      { title: "Karoo Gym day pass", reference: "DAYPASS", description: "One day in the gym, towel and locker included.", amount: "150", colour: "#b45309" },
      null,
    );
    donation = await makePage(
      pages,
      { title: "Karoo animal shelter", reference: "SHELTER", description: "Every rand feeds a rescued dog or cat.", colour: "#1e3a8a" },
      { min: "20", max: "5000" },
    );
  });

  afterAll(async () => {
    await merchant?.close();
  });

  for (const look of LOOKS) {
    it(`draws the form, its errors, 3-D Secure and success in ${look.language} ${look.scheme}`, async () => {
      expect(dayPass).toMatch(/\S+/);
      const payerBrowser = await openBrowser({ javaScriptEnabled: false, colorScheme: look.scheme, locale: look.locale });
      try {
        const tab = await payerBrowser.newPage();
        const payer = new PublicPayPage(tab);
        // Afrikaans by the page's own switch; the cookie it sets keeps it for the next pages.
        await payer.open(dayPass, look.language === "afr" ? "?lang=afr" : "");
        // The page's lang is the BCP 47 tag: Afrikaans is "af".
        expect(await tab.locator("html").getAttribute("lang")).toBe(look.language === "afr" ? "af" : "en");
        for (const [size, viewport] of Object.entries(SIZES)) {
          const name = (what: string) => `pay-${what}-${look.language}-${look.scheme}-${size}`;
          await tab.setViewportSize(viewport);
          await payer.open(dayPass);
          await shoot(tab, name("card"));
          await payer.field("cardNumber").focus();
          await shoot(tab, name("focus"));
          await payer.chooseMethod(look.bank);
          await shoot(tab, name("bank"));

          await payer.open(donation);
          await payer.submit();
          await tab.locator('.error[id="name-error"]').waitFor();
          await checkFieldsAreTied(tab);
          await shoot(tab, name("errors"));

          await payer.open(dayPass);
          await payer.fillCard({ name: "Lerato Mokoena", email: "lerato@example.co.za", cardNumber: "4000000000003220" });
          await payer.submit();
          await payer.waitForHeading(look.threeDs);
          await shoot(tab, name("3ds"));
          await payer.answerStep(look.approve);
          await payer.waitForHeading(look.paid);
          await shoot(tab, name("success"));
        }
      } finally {
        await payerBrowser.close();
      }
    });
  }

  it("moves the keyboard through the form in reading order, with a visible focus ring", async () => {
    const payerBrowser = await openBrowser({ javaScriptEnabled: false });
    try {
      const tab = await payerBrowser.newPage();
      const payer = new PublicPayPage(tab);
      await payer.open(donation);
      const stops: string[] = [];
      const rings: string[] = [];
      for (let i = 0; i < 12; i += 1) {
        await tab.keyboard.press("Tab");
        const stop = await tab.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return null;
          const style = getComputedStyle(el);
          return { name: el.id || el.getAttribute("name") || el.textContent?.trim() || el.tagName, ring: `${style.outlineStyle} ${style.outlineWidth}` };
        });
        if (!stop) break;
        stops.push(stop.name);
        rings.push(stop.ring);
      }
      expect(stops).toEqual(["Card", "Pay by bank", "amount", "name", "email", "card-number", "expiry", "cvv", expect.stringMatching(/^Pay/), "English", "Afrikaans"]);
      for (const ring of rings) expect(ring).toMatch(/^solid [1-9]/);
      // The whole page, styles included, stays small for a slow phone connection.
      const html = await (await tab.request.get(`/pay/${donation}`)).body();
      expect(html.byteLength).toBeLessThan(30_000);
    } finally {
      await payerBrowser.close();
    }
  });
});
