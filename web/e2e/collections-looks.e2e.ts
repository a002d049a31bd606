import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { inDays } from "./dates";
import { openBrowser, shoot, type Session } from "./browser";
import { runCommands } from "./collectionsSeed";
import { signUpFresh } from "./flows";
import { NewPaymentForm, PaymentDetailPage, PaymentsListPage } from "./pages/CollectionPages";
import { Shell } from "./pages/Shell";

const CUSTOMER = {
  name: "Pieter van der Merwe",
  email: "pieter@example.co.za",
  cellphone: "+27831234567",
  idType: "south_african_id" as const,
  idNumber: "9506245120008",
  addressLine1: "",
  addressLine2: "",
  city: "",
  postalCode: "",
  reference: "PVDM-1",
};

async function goTo(page: Page, path: string, testId: string): Promise<void> {
  await page.goto(path);
  await new Shell(page).waitUntilLive();
  await page.getByTestId(testId).waitFor();
}

describe("collections screens in both languages and colour modes", () => {
  let session: Session;
  let page: Page;

  beforeAll(async () => {
    session = await openBrowser({ colorScheme: "light" });
    page = await session.newPage();
    await signUpFresh(page, "coll-looks");
    await runCommands(page, "live", [{ t: "CreateCustomer", input: CUSTOMER }]);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("shows the server's field errors beside the fields of the new payment form", async () => {
    const list = new PaymentsListPage(page, "recurring");
    await list.open();
    await new Shell(page).waitUntilLive();
    const form = new NewPaymentForm(page);
    await form.openFor("Pieter", CUSTOMER.name);
    await form.field("bank-account-bank").selectOption("capitec");
    await form.field("bank-account-accountNumber").fill("4100000003");
    await form.field("mandate-contractReference").fill("GYM 1");
    // DebiCheck may take at most 1.5 times the amount.
    await form.field("mandate-maximumCollection").fill("500");
    await form.field("payment-amount-input").fill("100");
    await form.field("payment-startDate").fill(inDays(5));
    await form.field("payment-dayToProcess").fill("40");
    await form.submit();
    await expect.poll(() => form.fieldError("mandate-contractReference").textContent()).toBeTruthy();
    await expect.poll(() => form.fieldError("mandate-maximumCollection").textContent()).toBeTruthy();
    await expect.poll(() => form.fieldError("payment-dayToProcess").textContent()).toBeTruthy();
    await shoot(page, "new-payment-errors-en-light");

    // Fixed, it is made and the form lands on its page.
    await form.field("mandate-contractReference").fill("GYM1");
    await form.field("mandate-maximumCollection").fill("150");
    await form.field("payment-dayToProcess").fill("1");
    await form.submit();
    const detail = new PaymentDetailPage(page);
    await detail.waitForIt();

    // A once-off EFT debit order that waits to be started.
    const once = new PaymentsListPage(page, "one-time");
    await once.open();
    await form.openFor("Pieter", CUSTOMER.name);
    // Its DebiCheck mandate went unanswered, so there is none to use: a new one comes with it.
    await form.field("mandate-choice-new").click();
    await form.field("mandate-method").selectOption("eft_debit_order");
    await form.field("mandate-bankAccount").selectOption({ index: 1 });
    await form.field("mandate-contractReference").fill("ONCE1");
    await form.field("payment-amount-input").fill("1250");
    await form.field("payment-dateToProcess").fill(inDays(3));
    await form.field("payment-transactionReference").fill("INV-2026-7");
    await form.field("payment-startRunning").uncheck();
    await shoot(page, "new-payment-once-en-light");
    await form.submit();
    await detail.waitForIt();
    await expect.poll(() => detail.status().getAttribute("data-status")).toBe("pending");
    await detail.action("start").waitFor();
  });

  it("draws every collections screen in en and afr, light and dark", async () => {
    // The no-reply account: the approval request goes unanswered once the window closes.
    await runCommands(page, "live", [{ t: "AdvanceTestClock", step: "day" }]).catch(() => undefined);
    const shell = new Shell(page);
    const screens: [string, string, string][] = [
      ["/payments/recurring", "payments-page-recurring", "recurring-list"],
      ["/payments/one-time", "payments-page-once", "once-list"],
      ["/mandates", "mandates-page", "mandates-list"],
      ["/payments/e-mandates", "e-mandates-page", "e-mandates-list"],
      ["/settings/payment-methods", "payment-methods-page", "payment-methods"],
    ];
    for (const [language, theme] of [
      ["en", "light"],
      ["en", "dark"],
      ["afr", "light"],
      ["afr", "dark"],
    ] as const) {
      await goTo(page, "/payments/recurring", "payments-page-recurring");
      await shell.chooseLanguage(language);
      await shell.chooseTheme(theme);
      for (const [path, testId, name] of screens) {
        await goTo(page, path, testId);
        await page.waitForLoadState("networkidle");
        await shoot(page, `${name}-${language}-${theme}`);
      }
      await goTo(page, "/payments/recurring", "payments-page-recurring");
      await page.getByTestId("payment-row").first().getByRole("link").click();
      await new PaymentDetailPage(page).waitForIt();
      await shoot(page, `recurring-detail-${language}-${theme}`);
      await page.getByTestId("mandate-link").click();
      await page.getByTestId("mandate-detail").waitFor();
      await page.getByTestId("mandate-status").waitFor();
      await shoot(page, `mandate-detail-${language}-${theme}`);
      await goTo(page, "/payments/one-time", "payments-page-once");
      await page.getByTestId("new-payment").first().click();
      await page.getByTestId("new-payment-dialog").getByTestId("customer-option").first().click();
      // The customer's active EFT mandate is offered first.
      await page.getByTestId("mandate-option").first().waitFor();
      await shoot(page, `new-payment-existing-${language}-${theme}`);
      await page.getByTestId("mandate-choice-new").click();
      await page.getByTestId("mandate-fields").waitFor();
      await shoot(page, `new-payment-${language}-${theme}`);
      await page.keyboard.press("Escape");
    }
  });

  it("names every mistake of the new payment form at one press in en and afr, light and dark, wide and on a phone", async () => {
    const shell = new Shell(page);
    const form = new NewPaymentForm(page);
    const english = { required: "This field is required.", notAllowed: "This contains characters that are not allowed.", past: "Choose today or a later date." };
    const afrikaans = { required: "Hierdie veld is verpligtend.", notAllowed: "Dit bevat karakters wat nie toegelaat word nie.", past: "Kies vandag of 'n latere datum." };
    for (const [language, theme, words, width] of [
      ["en", "light", english, 1280],
      ["en", "light", english, 390],
      ["en", "dark", english, 1280],
      ["afr", "light", afrikaans, 1280],
      ["afr", "dark", afrikaans, 1280],
      ["afr", "dark", afrikaans, 390],
    ] as const) {
      await page.setViewportSize({ width, height: 844 });
      await goTo(page, "/payments/recurring", "payments-page-recurring");
      await shell.chooseLanguage(language);
      await shell.chooseTheme(theme);
      await form.openFor("Pieter", CUSTOMER.name);
      await form.field("mandate-choice-new").click();
      // Pieter's saved account comes picked: a new one is asked for, left blank.
      await expect.poll(() => form.field("mandate-bankAccount").inputValue()).not.toBe("");
      await form.field("mandate-bankAccount").selectOption("");
      // No bank, no amount, and two mistakes only the server finds.
      await form.field("mandate-contractReference").fill("GYM 1");
      await form.field("payment-startDate").fill("2020-01-06");
      await form.submit();
      await expect.poll(() => form.errors()).toEqual([
        ["bank-account-bank", words.required],
        ["bank-account-branchCode", words.required],
        ["bank-account-accountNumber", words.required],
        ["mandate-contractReference", words.notAllowed],
        ["mandate-maximumCollection", words.required],
        ["payment-amount-input", words.required],
        ["payment-startDate", words.past],
        ["payment-dayToProcess", words.required],
      ]);
      // Nothing in the dialog runs off its side.
      expect(await form.dialog().evaluate((dialog) => dialog.scrollWidth <= dialog.clientWidth)).toBe(true);
      // The whole dialog in one picture: a window as tall as its content.
      const tall = await form.dialog().evaluate((dialog) => dialog.scrollHeight);
      await page.setViewportSize({ width, height: tall + 64 });
      await shoot(page, `new-payment-one-press-${language}-${theme}-${width}`);
      await page.keyboard.press("Escape");
      await form.dialog().waitFor({ state: "detached" });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await shell.chooseLanguage("en");
    await shell.chooseTheme("light");
  });
});
