import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { inDays } from "./dates";
import { openBrowser, shoot, type Session } from "./browser";
import { runCommands } from "./collectionsSeed";
import { signUpFresh } from "./flows";
import { waitForMailLink } from "./mail";
import { Shell } from "./pages/Shell";

const PAYER = {
  name: "Thandi Nkosi",
  email: "thandi.emandate@example.co.za",
  cellphone: "+27821112233",
  idNumber: "",
  addressLine1: "",
  addressLine2: "",
  city: "",
  postalCode: "",
  reference: "TN-1",
};

describe("electronic mandate requests, sent from the e-mandates screen and followed live", () => {
  let session: Session;
  let merchant: Page;

  beforeAll(async () => {
    session = await openBrowser({ colorScheme: "light" });
    merchant = await session.newPage();
    await signUpFresh(merchant, "e-mandates");
    await runCommands(merchant, "live", [{ t: "CreateCustomer", input: PAYER }]);
  });

  afterAll(async () => {
    await session?.close();
  });

  function row(page: Page) {
    return page.locator('[data-testid="e-mandate-request-row"]', { hasText: PAYER.name });
  }

  it("requests a mandate, sees it opened from the mailed link, then cancels it", { timeout: 120_000 }, async () => {
    await merchant.goto("/payments/e-mandates");
    await new Shell(merchant).waitUntilLive();
    await merchant.getByTestId("e-mandate-requests-empty").waitFor();

    await merchant.getByTestId("request-e-mandate").click();
    const dialog = merchant.getByTestId("e-mandate-dialog");
    // The form's own checks speak first, beside the fields.
    await dialog.getByTestId("e-mandate-submit").click();
    await dialog.locator('[aria-invalid="true"]').first().waitFor();
    expect(await dialog.locator('[aria-invalid="true"]').count()).toBeGreaterThanOrEqual(3);

    await dialog.getByTestId("customer-picker-search").fill("Thandi");
    await dialog.getByTestId("customer-option").filter({ hasText: PAYER.name }).click();
    await dialog.getByTestId("e-mandate-amount").fill("500");
    // More than DebiCheck's 1.5 times the amount: the server's refusal shows beside the maximum.
    await dialog.getByTestId("e-mandate-maximum").fill("900");
    await dialog.getByTestId("e-mandate-interval").selectOption("monthly");
    await dialog.getByTestId("e-mandate-startDate").fill(inDays(10));
    await dialog.getByTestId("e-mandate-change-start_date").check();
    await dialog.getByTestId("e-mandate-submit").click();
    await dialog.locator('[data-testid="e-mandate-maximum"][aria-invalid="true"]').waitFor();
    expect(await dialog.locator('[aria-invalid="true"]').count()).toBe(1);
    await shoot(merchant, "e-mandate-form-error-en-light");

    const sentAt = Date.now();
    await dialog.getByTestId("e-mandate-maximum").fill("750");
    await dialog.getByTestId("e-mandate-submit").click();
    await dialog.waitFor({ state: "detached" });
    await row(merchant).locator('[data-testid="e-mandate-request-state"][data-state="sent"]').waitFor();

    // The payer's mail carries the same link the merchant can copy.
    const mail = await waitForMailLink(PAYER.email, { after: sentAt - 1_000 });
    expect(mail.link).toContain("/mandate/");
    expect(await row(merchant).getByTestId("e-mandate-copy").getAttribute("data-link")).toBe(mail.link);

    // The payer opens it in another tab; the merchant's tab sees it opened without a reload.
    const payer = await session.newPage();
    await payer.goto(mail.link);
    await merchant.bringToFront();
    await row(merchant).locator('[data-testid="e-mandate-request-state"][data-state="opened"]').waitFor();
    await payer.close();

    const shell = new Shell(merchant);
    for (const [language, theme] of [
      ["en", "light"],
      ["en", "dark"],
      ["afr", "light"],
      ["afr", "dark"],
    ] as const) {
      await shell.chooseLanguage(language);
      await shell.chooseTheme(theme);
      await merchant.waitForLoadState("networkidle");
      await shoot(merchant, `e-mandate-requests-${language}-${theme}`);
      await merchant.getByTestId("request-e-mandate").click();
      await merchant.getByTestId("e-mandate-payer-new").click();
      await shoot(merchant, `e-mandate-form-${language}-${theme}`);
      await merchant.keyboard.press("Escape");
      await merchant.getByTestId("e-mandate-dialog").waitFor({ state: "detached" });
    }
    await shell.chooseLanguage("en");
    await shell.chooseTheme("light");

    await row(merchant).getByTestId("e-mandate-cancel").click();
    await merchant.getByTestId("confirm-action").click();
    await row(merchant).locator('[data-testid="e-mandate-request-state"][data-state="cancelled"]').waitFor();
    expect(await row(merchant).getByTestId("e-mandate-cancel").count()).toBe(0);
    expect(await row(merchant).getByTestId("e-mandate-resend").count()).toBe(0);
  });
});
