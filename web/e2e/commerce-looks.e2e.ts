import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, shoot, type Session } from "./browser";
import { signUpFresh } from "./flows";
import { CardsPage, OrdersPage, payByCard, PayPagesPage } from "./pages/CommercePages";
import { TestMode } from "./pages/DashboardPages";
import { Shell } from "./pages/Shell";

async function makePage(pages: PayPagesPage, fields: Parameters<PayPagesPage["fill"]>[0], recurring: boolean): Promise<string> {
  await pages.startNew();
  await pages.fill(fields);
  if (recurring) await pages.dialog().getByTestId("page-kind-recurring").click();
  await pages.submitAndClose();
  const row = pages.row(fields.title ?? "");
  await row.waitFor();
  return (await row.getAttribute("data-page-id")) ?? "";
}

describe("payment pages, orders and cards in both languages and colour modes", () => {
  let session: Session;
  let merchant: Page;
  let payer: Page;
  let paidOrder = "";

  beforeAll(async () => {
    session = await openBrowser({ colorScheme: "light" });
    merchant = await session.newPage();
    await signUpFresh(merchant, "commerce-looks");
    // The published test cards pay test pages only: a live page refuses them.
    await new TestMode(merchant).switchOn();
    const pages = new PayPagesPage(merchant);
    await pages.open();
    await new Shell(merchant).waitUntilLive();
    const dayPass = await makePage(pages, { title: "Karoo Gym day pass", reference: "DAYPASS", description: "One day in the gym.", amount: "150" }, false);
    const monthly = await makePage(pages, { title: "Karoo Gym membership", reference: "MEMBER", amount: "499", colour: "#b45309" }, true);
    await makePage(pages, { title: "Old promotion", reference: "PROMO", amount: "99" }, false);
    await pages.row("Old promotion").getByTestId("pay-page-toggle").click();
    await pages.row("Old promotion").locator('[data-state="inactive"]').waitFor();

    // Payers on the public page, in another tab of the same browser (no merchant session needed).
    payer = await session.newPage();
    await payByCard(payer, dayPass, { name: "Sipho Dlamini", email: "sipho@example.co.za", cardNumber: "4242424242424242" });
    await payByCard(payer, dayPass, { name: "Anna Botha", email: "anna@example.co.za", cardNumber: "4000000000000002" });
    await payByCard(payer, monthly, { name: "Lerato Mokoena", email: "lerato@example.co.za", cardNumber: "4242424242424242" });

    const orders = new OrdersPage(merchant);
    await orders.open();
    await merchant.getByTestId("order-row").nth(2).waitFor();
    paidOrder = (await merchant.locator('[data-testid="order-row"]:has([data-status="paid"])').first().getAttribute("data-order-id")) ?? "";
  });

  afterAll(async () => {
    await session?.close();
  });

  // One test per look: each takes some 25 s of screenshots, too close to the suite's 60 s for both in one.
  for (const [language, theme] of [
    ["en", "light"],
    ["afr", "dark"],
  ] as const) {
    it(`draws the pages, orders, an order and the cards in ${language} ${theme}`, { timeout: 120_000 }, async () => {
      expect(paidOrder).not.toBe("");
      const shell = new Shell(merchant);
      const pages = new PayPagesPage(merchant);
      await pages.open();
      await shell.waitUntilLive();
      await shell.chooseLanguage(language);
      await shell.chooseTheme(theme);
      await pages.row("Karoo Gym day pass").waitFor();
      await shoot(merchant, `pay-pages-${language}-${theme}`);
      const share = await pages.share("Karoo Gym day pass");
      await share.getByTestId("share-qr").waitFor();
      await shoot(merchant, `pay-page-share-${language}-${theme}`);
      await merchant.keyboard.press("Escape");
      await pages.edit("Karoo Gym membership");
      await shoot(merchant, `pay-page-form-${language}-${theme}`);
      await merchant.keyboard.press("Escape");

      const orders = new OrdersPage(merchant);
      await orders.open();
      await merchant.getByTestId("order-row").first().waitFor();
      await shoot(merchant, `orders-${language}-${theme}`);
      await orders.open(`?order=${paidOrder}`);
      await merchant.getByTestId("order-items").waitFor();
      await shoot(merchant, `order-detail-${language}-${theme}`);

      const cards = new CardsPage(merchant);
      await cards.open();
      await merchant.getByTestId("card-row").first().waitFor();
      await shoot(merchant, `cards-${language}-${theme}`);
      await merchant.getByTestId("card-charge").first().click();
      await merchant.getByTestId("charge-amount").fill("499");
      await merchant.getByTestId("charge-reference").fill(`MEMBER-${language.toUpperCase()}`);
      await merchant.getByTestId("charge-submit").click();
      await merchant.locator('[data-testid="charge-outcome"][data-status="paid"]').waitFor();
      await shoot(merchant, `card-charged-${language}-${theme}`);
      await merchant.getByTestId("charge-done").click();
    });
  }
});
