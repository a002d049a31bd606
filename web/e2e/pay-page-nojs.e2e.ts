import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, type Session } from "./browser";
import { signUpFresh } from "./flows";
import { OrdersPage, PayPagesPage } from "./pages/CommercePages";
import { TestMode } from "./pages/DashboardPages";
import { PublicPayPage } from "./pages/PublicPayPage";
import { Shell } from "./pages/Shell";

/** A mark on `window` that a reload or navigation would wipe. */
async function markStill(tab: Page): Promise<void> {
  await tab.evaluate(() => Object.assign(window, { e2eNoReload: true }));
}

async function stillMarked(tab: Page): Promise<boolean> {
  return tab.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload === true);
}

describe("the pay page with JavaScript off, while the merchant watches live", () => {
  let merchant: Session;
  let payerBrowser: Session;
  let orders: Page;
  let transactions: Page;
  let payer: PublicPayPage;
  let payerTab: Page;
  let pageId = "";

  beforeAll(async () => {
    merchant = await openBrowser();
    orders = await merchant.newPage();
    await signUpFresh(orders, "pay-nojs");
    // The published test cards pay test pages only: a live page refuses them.
    await new TestMode(orders).switchOn();
    const pages = new PayPagesPage(orders);
    await pages.open();
    await new Shell(orders).waitUntilLive();
    await pages.startNew();
    await pages.fill({ title: "Karoo Gym day pass", reference: "DAYPASS", description: "One day in the gym, towel included.", amount: "150" });
    await pages.chooseMethods(["card", "instant_eft"]);
    await pages.submitAndClose();
    const row = pages.row("Karoo Gym day pass");
    await row.waitFor();
    pageId = (await row.getAttribute("data-page-id")) ?? "";

    // One tab on the orders, one on the transactions, each marked so a reload would show.
    await new OrdersPage(orders).open();
    await new Shell(orders).waitUntilLive();
    transactions = await merchant.newPage();
    await transactions.goto("/payments/transactions");
    await transactions.getByTestId("transactions-page").waitFor();
    await new Shell(transactions).waitUntilLive();
    // A new tab starts on live data: this one watches the test page's payments too.
    await new TestMode(transactions).switchOn();
    await markStill(orders);
    await markStill(transactions);

    // The payer: a browser of their own, JavaScript off.
    payerBrowser = await openBrowser({ javaScriptEnabled: false });
    payerTab = await payerBrowser.newPage();
    payer = new PublicPayPage(payerTab);
    // Proof the payer's browser runs no script at all.
    await payerTab.setContent("<title>before</title><script>document.title = 'ran'</script>");
    expect(await payerTab.title()).toBe("before");
  });

  afterAll(async () => {
    await payerBrowser?.close();
    await merchant?.close();
  });

  it("pays by card and the merchant's open tabs show the order and the transaction without a reload", async () => {
    expect(pageId).toMatch(/\S+/);
    await payer.open(pageId);
    // The page works without JavaScript because it has none.
    expect(await payerTab.locator("script").count()).toBe(0);
    expect(await payer.heading().first().innerText()).toBe("Karoo Gym day pass");

    await payer.fillCard({ name: "Sipho Dlamini", email: "sipho@example.co.za", cardNumber: "4242 4242 4242 4242", expiry: "12/30", cvv: "123" });
    await payer.submit();
    await payer.waitForHeading("Payment successful");
    expect(payerTab.url()).toContain(`/pay/${pageId}/attempts/`);
    expect(await payerTab.locator('[role="status"]').innerText()).toContain("Sipho Dlamini");

    const order = orders.getByTestId("order-row").filter({ hasText: "Sipho Dlamini" });
    await order.locator('[data-testid="order-status"][data-status="paid"]').waitFor();
    expect(await order.getByTestId("order-amount").innerText()).toContain("150");
    const transaction = transactions.getByTestId("transaction-row").filter({ hasText: "Sipho Dlamini" });
    await transaction.waitFor();
    expect(await transaction.getByTestId("transaction-amount").innerText()).toContain("150");
    expect(await stillMarked(orders)).toBe(true);
    expect(await stillMarked(transactions)).toBe(true);
  });

  it("shows a declined card's reason on the form again, keeping the name but not the card number", async () => {
    await payer.open(pageId);
    await payer.fillCard({ name: "Anna Botha", email: "anna@example.co.za", cardNumber: "4000000000000002" });
    await payer.submit();
    await payer.problem().filter({ hasText: "Your bank declined the card" }).waitFor();
    expect(await payer.field("name").inputValue()).toBe("Anna Botha");
    expect(await payer.field("email").inputValue()).toBe("anna@example.co.za");
    expect(await payer.field("cardNumber").inputValue()).toBe("");
    expect(await payer.field("cvv").inputValue()).toBe("");

    // The merchant sees the failed attempt too.
    await orders.getByTestId("order-row").filter({ hasText: "Anna Botha" }).waitFor();
    expect(await stillMarked(orders)).toBe(true);
  });

  it("takes a 3-D Secure card through the simulated bank step to success", async () => {
    await payer.open(pageId);
    await payer.fillCard({ name: "Lerato Mokoena", email: "lerato@example.co.za", cardNumber: "4000000000003220" });
    await payer.submit();
    await payer.waitForHeading("Confirm with your bank");
    await payer.answerStep("Approve");
    await payer.waitForHeading("Payment successful");
    await orders
      .getByTestId("order-row")
      .filter({ hasText: "Lerato Mokoena" })
      .locator('[data-testid="order-status"][data-status="paid"]')
      .waitFor();
    expect(await stillMarked(orders)).toBe(true);
  });

  it("pays by bank: the chosen bank approves and the page says so", async () => {
    await payer.open(pageId);
    await payer.chooseMethod("Pay by bank");
    expect(await payer.field("cardNumber").count()).toBe(0);
    await payer.fillBank({ name: "Pieter van Wyk", email: "pieter@example.co.za", bank: "Capitec" });
    await payer.submit();
    await payer.waitForHeading("Approve in your bank");
    expect(await payerTab.locator("main").innerText()).toContain("Capitec");
    await payer.answerStep("Approve");
    await payer.waitForHeading("Payment successful");
    await orders
      .getByTestId("order-row")
      .filter({ hasText: "Pieter van Wyk" })
      .locator('[data-testid="order-status"][data-status="paid"]')
      .waitFor();
    await transactions.getByTestId("transaction-row").filter({ hasText: "Pieter van Wyk" }).waitFor();
    expect(await stillMarked(orders)).toBe(true);
    expect(await stillMarked(transactions)).toBe(true);
  });

  it("refuses a published test card on a live page, beside the number, and records no order", async () => {
    // A new tab starts on live data: the page made there is a live one.
    const live = await merchant.newPage();
    const pages = new PayPagesPage(live);
    await pages.open();
    await new Shell(live).waitUntilLive();
    await pages.startNew();
    await pages.fill({ title: "Live day pass", reference: "LIVEPASS", description: "A real day in the gym.", amount: "150" });
    await pages.chooseMethods(["card"]);
    await pages.submitAndClose();
    const row = pages.row("Live day pass");
    await row.waitFor();
    const livePageId = (await row.getAttribute("data-page-id")) ?? "";

    await payer.open(livePageId);
    await payer.fillCard({ name: "Zanele Khoza", email: "zanele@example.co.za", cardNumber: "4242 4242 4242 4242" });
    await payer.submit();
    await payer.fieldError("card-number").waitFor();
    expect(await payer.fieldError("card-number").textContent()).toBe("This is a test card: it works on pages in test mode only.");
    expect(await payer.field("name").inputValue()).toBe("Zanele Khoza");
    expect(await payer.field("cardNumber").inputValue()).toBe("");

    const liveOrders = new OrdersPage(live);
    await liveOrders.open();
    await new Shell(live).waitUntilLive();
    await live.getByTestId("orders-empty").waitFor();
    await live.close();
  });
});
