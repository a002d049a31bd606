import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, screenshots, shoot, type Session } from "./browser";
import { runCommand } from "./dashboardSeed";
import { signUpFresh } from "./flows";
import { OrdersPage, payByCard, PayPagesPage } from "./pages/CommercePages";
import { TestMode, TransactionsList } from "./pages/DashboardPages";
import { Shell } from "./pages/Shell";

/** Rand as the screens show it ("R 150,00", "R150.00") in cents. */
function cents(text: string | null): number {
  return Number((text ?? "").replace(/\D/g, ""));
}

async function centsOf(page: Page, testId: string): Promise<number> {
  return Number(await page.getByTestId(testId).getAttribute("data-cents"));
}

describe("a partial refund and the month's statement", () => {
  let session: Session;
  let merchant: Page;
  let orderId = "";

  beforeAll(async () => {
    session = await openBrowser({ colorScheme: "light" });
    merchant = await session.newPage();
    await signUpFresh(merchant, "statement");
    // The published test cards pay test pages only: a live page refuses them.
    await new TestMode(merchant).switchOn();
    const pages = new PayPagesPage(merchant);
    await pages.open();
    await new Shell(merchant).waitUntilLive();
    await pages.startNew();
    await pages.fill({ title: "Karoo Gym day pass", reference: "DAYPASS", amount: "150" });
    await pages.submitAndClose();
    const row = pages.row("Karoo Gym day pass");
    await row.waitFor();
    const pageId = (await row.getAttribute("data-page-id")) ?? "";
    const payer = await session.newPage();
    await payByCard(payer, pageId, { name: "Sipho Dlamini", email: "sipho@example.co.za", cardNumber: "4242424242424242" });
    await payByCard(payer, pageId, { name: "Lerato Mokoena", email: "lerato@example.co.za", cardNumber: "4242424242424242" });
    await payer.close();
    const orders = new OrdersPage(merchant);
    await orders.open("?status=paid");
    await merchant.getByTestId("order-row").nth(1).waitFor();
    orderId = (await merchant.getByTestId("order-row").first().getAttribute("data-order-id")) ?? "";
  });

  afterAll(async () => {
    await session?.close();
  });

  it("refunds part of a card order, which stays paid and shows what went back", async () => {
    const orders = new OrdersPage(merchant);
    await orders.open(`?order=${orderId}`);
    const detail = merchant.getByTestId("order-detail");
    await detail.getByTestId("order-refund").click();
    const dialog = merchant.getByTestId("order-confirm");
    const amount = dialog.getByTestId("refund-amount");
    // The amount starts at what is left: the whole order.
    expect(await amount.inputValue()).toBe("150");
    // More than was paid is refused beside the amount, and nothing moves.
    await amount.fill("150.01");
    await dialog.getByTestId("confirm-action").click();
    await dialog.locator(".field-error").waitFor();
    expect(await dialog.locator(".field-error").textContent()).toContain("cannot be more than was paid");
    await shoot(merchant, "statement-refund-refused-en-light");
    await amount.fill("50");
    await dialog.getByTestId("confirm-action").click();
    await dialog.waitFor({ state: "detached" });
    await detail.getByTestId("order-refunded").waitFor();
    expect(cents(await detail.getByTestId("order-refunded").textContent())).toBe(5_000);
    await detail.locator('[data-testid="order-status"][data-status="paid"]').waitFor();
    expect(await detail.getByTestId("order-refunds").locator("tbody tr").count()).toBe(1);
    // R6.43 fee less the R2.14 a third of the order gives back; R150 - R50 - R4.29 kept.
    expect(cents(await detail.getByTestId("order-fee").textContent())).toBe(429);
    expect(cents(await detail.getByTestId("order-net").textContent())).toBe(9_571);
    await shoot(merchant, "statement-order-refunded-en-light");
  });

  it("opens the month's statement from the transactions, whose totals match the list, and downloads it", async () => {
    const list = new TransactionsList(merchant);
    await list.open();
    await list.rows().nth(1).waitFor();
    const listed = new Map<string, number>();
    for (const row of await list.rows().all()) {
      listed.set((await row.getAttribute("data-transaction-id")) ?? "", cents(await row.getByTestId("transaction-amount").textContent()));
    }
    expect(listed.size).toBe(2);

    // The owner's business details head the statement.
    await runCommand(merchant, "test", {
      t: "UpdateBusinessInfo",
      info: {
        legalName: "Karoo Gym (Pty) Ltd",
        tradingName: "",
        registrationNumber: "2019/123456/07",
        vatNumber: "4123456789",
        industry: "",
        physicalAddress: "",
        contactPerson: "",
        supportEmail: "",
        supportPhone: "",
        statementName: "karoo gym",
        version: 0,
      },
    });

    await merchant.getByTestId("summary-link").click();
    await merchant.getByTestId("summary-page").waitFor();
    const address = new URL(merchant.url());
    expect(address.pathname).toBe("/download/summary");
    expect(address.searchParams.get("from")).toMatch(/^\d{4}-\d{2}-01$/);
    await merchant.getByTestId("summary-totals").waitFor();
    expect(await merchant.getByTestId("summary-business").textContent()).toBe("Karoo Gym (Pty) Ltd · Registration number 2019/123456/07 · VAT number 4123456789");

    // Every collection of the statement is a transaction of the list, at its amount.
    const collections = merchant.locator('[data-testid="summary-line"][data-kind="collection"]');
    expect(await collections.count()).toBe(listed.size);
    for (const line of await collections.all()) {
      const id = (await line.getAttribute("data-transaction-id")) ?? "";
      expect(Number(await line.getAttribute("data-cents"))).toBe(listed.get(id));
    }
    const listedTotal = [...listed.values()].reduce((sum, value) => sum + value, 0);
    expect(await centsOf(merchant, "summary-collected-card")).toBe(listedTotal);
    expect(await centsOf(merchant, "summary-fees")).toBe(-1_286);
    expect(await centsOf(merchant, "summary-feeReturns")).toBe(214);
    expect(await centsOf(merchant, "summary-refunds")).toBe(-5_000);
    // Closing = opening + every entry of the period.
    const entries = await merchant.getByTestId("summary-line").evaluateAll((rows) => rows.reduce((sum, row) => sum + Number(row.getAttribute("data-cents")), 0));
    expect(await centsOf(merchant, "summary-closing")).toBe((await centsOf(merchant, "summary-opening")) + entries);
    expect(await centsOf(merchant, "summary-closing")).toBe(listedTotal - 1_286 + 214 - 5_000);
    await shoot(merchant, "statement-summary-en-light");

    const [download] = await Promise.all([merchant.waitForEvent("download"), merchant.getByTestId("summary-csv").click()]);
    expect(download.suggestedFilename()).toMatch(/^paydesk-statement-(test|live)-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), "utf8");
    expect(csv).toContain(`Closing balance,${((listedTotal - 1_286 + 214 - 5_000) / 100).toFixed(2)}\n`);
    expect(csv).toContain("Refunds,-50.00\n");
    expect(csv).toContain("Sipho Dlamini");

    // Printed: no controls, black on white.
    await merchant.emulateMedia({ media: "print" });
    expect(await merchant.getByTestId("summary-csv").isVisible()).toBe(false);
    await shoot(merchant, "statement-summary-print");
    // As a PDF on A4, each page numbered ("1 / 2") at its foot.
    await merchant.pdf({ path: join(screenshots, "statement-summary.pdf"), format: "A4", preferCSSPageSize: true });
    await merchant.emulateMedia({ media: "screen" });
  });

  it("draws the statement in Afrikaans and dark", async () => {
    const shell = new Shell(merchant);
    const list = new TransactionsList(merchant);
    await list.open();
    await shell.waitUntilLive();
    await shell.chooseLanguage("afr");
    await shell.chooseTheme("dark");
    await merchant.getByTestId("summary-link").click();
    await merchant.getByTestId("summary-totals").waitFor();
    expect(await merchant.getByTestId("summary-page").textContent()).toContain("Eindsaldo");
    await shoot(merchant, "statement-summary-afr-dark");
    await merchant.emulateMedia({ media: "print" });
    await shoot(merchant, "statement-summary-afr-print");
    await merchant.emulateMedia({ media: "screen" });
  });
});
