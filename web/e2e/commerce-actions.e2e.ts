import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, type Session } from "./browser";
import { signUpFresh } from "./flows";
import { CardsPage, OrdersPage, payByCard, PayPagesPage } from "./pages/CommercePages";
import { TestMode } from "./pages/DashboardPages";
import { Shell } from "./pages/Shell";
import { withoutPlaceParams } from "../src/live/place";

// The smallest PNG there is (1×1), as a payer's browser would fetch a logo.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

async function makePage(pages: PayPagesPage, title: string, reference: string, recurring: boolean): Promise<string> {
  await pages.startNew();
  await pages.fill({ title, reference, amount: "120" });
  if (recurring) await pages.dialog().getByTestId("page-kind-recurring").click();
  await pages.submitAndClose();
  const row = pages.row(title);
  await row.waitFor();
  return (await row.getAttribute("data-page-id")) ?? "";
}

describe("what a merchant does after a checkout", () => {
  let session: Session;
  let merchant: Page;
  let payer: Page;
  let tickets = "";

  beforeAll(async () => {
    session = await openBrowser();
    merchant = await session.newPage();
    await signUpFresh(merchant, "commerce-actions");
    // The published test cards pay test pages only: a live page refuses them.
    await new TestMode(merchant).switchOn();
    const pages = new PayPagesPage(merchant);
    await pages.open();
    await new Shell(merchant).waitUntilLive();
    tickets = await makePage(pages, "Braai tickets", "BRAAI", false);
    const membership = await makePage(pages, "Club membership", "CLUB", true);
    payer = await session.newPage();
    await payByCard(payer, tickets, { name: "Sipho Dlamini", email: "sipho@example.co.za", cardNumber: "4242424242424242" });
    await payByCard(payer, membership, { name: "Lerato Mokoena", email: "lerato@example.co.za", cardNumber: "4242424242424242" });
    // 3-D Secure: the payer stops at the bank's step, leaving the order pending.
    await payByCard(payer, tickets, { name: "Anna Botha", email: "anna@example.co.za", cardNumber: "4000000000003220" });
    await payer.getByRole("button", { name: "Approve" }).waitFor();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("gives a logo to a page, which the pay page then shows", async () => {
    const pages = new PayPagesPage(merchant);
    await pages.open();
    await pages.edit("Braai tickets");
    await pages.dialog().getByTestId("page-logo-input").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    await pages.dialog().getByTestId("page-logo-preview").waitFor();
    await pages.submitAndClose();
    const logo = pages.row("Braai tickets").locator("img");
    await logo.waitFor();
    const response = await merchant.request.get((await logo.getAttribute("src")) ?? "");
    expect(response.headers()["content-type"]).toBe("image/png");
    const publicPage = await session.newPage();
    await publicPage.goto(`/pay/${tickets}`);
    expect(await publicPage.locator("header img").getAttribute("src")).toMatch(new RegExp(`^/pay/${tickets}/logo\\?v=\\d+$`));
  });

  it("filters the orders, opens one from its row and keeps both in the address", async () => {
    const orders = new OrdersPage(merchant);
    await orders.open();
    const rows = merchant.getByTestId("order-row");
    await merchant.waitForFunction(() => document.querySelectorAll('[data-testid="order-row"]').length === 3);
    const filters = merchant.getByTestId("order-filters");
    // Two changes one straight after the other: both must stay.
    await filters.getByTestId("filter-status").selectOption("paid");
    await filters.getByTestId("filter-method").selectOption("card");
    await merchant.waitForFunction(() => document.querySelectorAll('[data-testid="order-row"]').length === 2);
    await filters.getByTestId("filter-search").fill("lerato");
    await merchant.waitForFunction(() => document.querySelectorAll('[data-testid="order-row"]').length === 1);
    expect(await rows.first().textContent()).toContain("Lerato Mokoena");
    const filtered = new URL(merchant.url()).searchParams;
    expect([filtered.get("status"), filtered.get("method"), filtered.get("q")]).toEqual(["paid", "card", "lerato"]);

    // Opening an order adds an entry to the history; going back closes it and keeps the filters.
    const id = await rows.first().getAttribute("data-order-id");
    await rows.first().getByTestId("order-open").click();
    await merchant.getByTestId("order-detail").waitFor();
    expect(new URL(merchant.url()).searchParams.get("order")).toBe(id);
    await merchant.goBack();
    await merchant.getByTestId("order-detail").waitFor({ state: "detached" });
    expect(new URL(merchant.url()).searchParams.get("q")).toBe("lerato");

    await filters.getByTestId("filter-clear").click();
    await merchant.waitForFunction(() => document.querySelectorAll('[data-testid="order-row"]').length === 3);
    expect(withoutPlaceParams(new URL(merchant.url()).searchParams).toString()).toBe("");
  });

  it("refunds a paid order and cancels one left waiting, which the payer then sees", async () => {
    const orders = new OrdersPage(merchant);
    await orders.open();
    const paid = merchant.locator('[data-testid="order-row"]:has([data-status="paid"])').first();
    await paid.waitFor();
    await orders.open(`?order=${await paid.getAttribute("data-order-id")}`);
    const detail = merchant.getByTestId("order-detail");
    await detail.getByTestId("order-refund").click();
    await merchant.getByTestId("order-confirm").getByTestId("confirm-action").click();
    await detail.locator('[data-testid="order-status"][data-status="refunded"]').waitFor();
    await merchant.keyboard.press("Escape");

    const pending = merchant.locator('[data-testid="order-row"]:has([data-status="pending"])').first();
    await pending.waitFor();
    await orders.open(`?order=${await pending.getAttribute("data-order-id")}`);
    await detail.getByTestId("order-cancel").click();
    await merchant.getByTestId("order-confirm").getByTestId("confirm-action").click();
    await detail.locator('[data-testid="order-status"][data-status="cancelled"]').waitFor();
    // The payer's bank step is over: a reload shows the payment was not completed.
    await payer.reload();
    await payer.getByText("Payment not completed").waitFor();
    expect(await payer.textContent("body")).toContain("The payment was cancelled");
  });

  it("removes a card kept on file", async () => {
    const cards = new CardsPage(merchant);
    await cards.open();
    await merchant.getByTestId("card-row").first().waitFor();
    await merchant.getByTestId("card-remove").first().click();
    await merchant.getByTestId("card-remove-dialog").getByTestId("confirm-action").click();
    await merchant.getByTestId("cards-empty").waitFor();
  });
});
