import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, shoot, shootWindow, type Session } from "./browser";
import { eftDebitOrder } from "./collectionsSeed";
import { createRecord } from "./dashboardSeed";
import { signUpFresh } from "./flows";
import { payByCard } from "./pages/CommercePages";
import { TestMode, TransactionsList } from "./pages/DashboardPages";
import { isFocused } from "./pages/fieldErrors";
import { byTestId, Keyboard } from "./pages/Keyboard";
import { SettlementAccountDialog } from "./pages/PayoutPages";
import { Shell } from "./pages/Shell";

/** A date `days` after an ISO date, as an ISO date. */
function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

async function openPayouts(page: Page): Promise<void> {
  await page.goto("/account/payouts");
  await page.getByTestId("payouts-page").waitFor();
  await new Shell(page).waitUntilLive();
  await new TestMode(page).switchOn();
  await page.getByTestId("payout-balance").waitFor();
}

/**
 * Advances the test clock a day at a time until `read` gives a text containing
 * `wanted`: money and payouts move on business days, so a weekend or a public
 * holiday may lie between (the clock starts on the day the test runs).
 */
async function advanceUntil(clock: TestMode, read: () => Promise<string | null>, wanted: string): Promise<void> {
  for (let day = 0; day < 7; day += 1) {
    if ((await read())?.includes(wanted)) return;
    await clock.advance("day");
    await clock.waitUntilPlayed();
  }
  await expect.poll(read).toContain(wanted);
}

describe("payouts", () => {
  let session: Session;
  let password = "";

  beforeAll(async () => {
    session = await openBrowser();
    const page = await session.newPage();
    password = (await signUpFresh(page, "payouts")).password;
    await page.close();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("names every blank field of the settlement account with the server's findings in one press, sets nothing, and takes a field's error away once it is fixed", { timeout: 90_000 }, async () => {
    const page = await session.newPage();
    await openPayouts(page);
    const dialog = new SettlementAccountDialog(page);
    const required = "This field is required.";

    // No bank, no password, and a number only the server reads wrong: one press names it all.
    const unreadable = "An account number has only digits (at most 17), and not only zeros.";
    await dialog.open();
    await dialog.fill({ accountNumber: "12a4" });
    await dialog.save();
    await expect.poll(() => dialog.errors()).toEqual([
      ["settlement-bank", required],
      ["settlement-branchCode", required],
      ["settlement-holderName", required],
      ["settlement-accountNumber", unreadable],
      ["settlement-confirmation", required],
    ]);
    expect(await isFocused(dialog.field("bank"))).toBe(true);

    // Fixing a field takes its error away; the others stay until they are fixed too.
    await dialog.fill({ holderName: "Karoo Gym (Pty) Ltd" });
    await expect.poll(() => dialog.errors()).toEqual([
      ["settlement-bank", required],
      ["settlement-branchCode", required],
      ["settlement-accountNumber", unreadable],
      ["settlement-confirmation", required],
    ]);

    // A number the bank does not know is told with the blank holder name, in the same answer.
    await dialog.fill({ bank: "fnb", holderName: "", accountNumber: "4200000001", confirmation: password });
    await dialog.save();
    await expect.poll(() => dialog.errors()).toEqual([
      ["settlement-holderName", required],
      ["settlement-accountNumber", "The bank has no account with this number at this branch."],
    ]);
    await dialog.fill({ holderName: "Karoo Gym (Pty) Ltd" });
    await expect.poll(() => dialog.errors()).toEqual([["settlement-accountNumber", "The bank has no account with this number at this branch."]]);
    await dialog.close();
    // Nothing was set: still no account, and nothing to pay out to.
    expect(await page.getByTestId("account-last4").count()).toBe(0);
    expect(await page.getByTestId("pay-out").isDisabled()).toBe(true);

    // How the empty form's errors look, in en and afr, light and dark, wide and on a phone.
    const shell = new Shell(page);
    for (const [language, theme, wording] of [
      ["en", "light", required],
      ["afr", "dark", "Hierdie veld is verpligtend."],
    ] as const) {
      await shell.chooseLanguage(language);
      await shell.chooseTheme(theme);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 });
        await dialog.open();
        await dialog.save();
        await expect.poll(async () => (await dialog.errors()).length).toBe(5);
        expect(new Set((await dialog.errors()).map(([, text]) => text))).toEqual(new Set([wording]));
        // Nothing in the dialog runs off its side.
        expect(await dialog.dialog().evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
        const tall = await dialog.dialog().evaluate((element) => element.scrollHeight);
        // A window tall enough for the whole dialog, as the user sees it.
        await page.setViewportSize({ width, height: Math.max(844, tall + 64) });
        await shootWindow(page, `settlement-account-all-missing-${language}-${theme}-${width}`);
        await dialog.close();
      }
    }
    // The language is the member's own, kept on the server: back to English for the tests after.
    await page.setViewportSize({ width: 1280, height: 800 });
    await shell.chooseLanguage("en");
    await shell.chooseTheme("light");
    await page.getByRole("heading", { name: "Payouts", exact: true }).first().waitFor();
    await page.close();
  });

  it("sets the account, pays out by hand and sees it paid in a second tab, live", { timeout: 180_000 }, async () => {
    const tabA = await session.newPage();
    await openPayouts(tabA);
    // The link keeps the business and mode the tab is in.
    const statement = new URL((await tabA.getByTestId("statement-link").getAttribute("href")) ?? "", "http://paydesk.test");
    expect(statement.pathname).toBe("/download/summary");
    expect(statement.searchParams.get("business")).toMatch(/^mer_/);

    // Money in: a payer pays a test-mode pay page by card (R150, R143.57 after the card fee).
    const pageId = await createRecord(tabA, "test", {
      t: "CreatePayPage",
      input: {
        title: "Yoga class",
        description: "",
        amountMode: "fixed",
        amountCents: 15_000,
        kind: "once",
        methods: ["card"],
        reference: "YOGA",
        colour: "#1e3a8a",
      },
    });
    const payer = await session.newPage();
    await payByCard(payer, pageId, { name: "Lerato Dlamini", email: "lerato@example.co.za", cardNumber: "4242424242424242" });
    await payer.close();
    await expect.poll(() => tabA.getByTestId("balance-pending").textContent()).toContain("143,57");

    // The settlement account, checked with the bank and confirmed with the password.
    await tabA.getByTestId("change-account").click();
    const dialog = tabA.getByTestId("settlement-account-dialog");
    await dialog.getByTestId("settlement-bank").selectOption("fnb");
    await dialog.getByTestId("settlement-holderName").fill("Karoo Gym (Pty) Ltd");
    await dialog.getByTestId("settlement-accountNumber").fill("4200000001");
    await dialog.getByTestId("settlement-confirmation").fill(password);
    await dialog.getByTestId("save-settlement-account").click();
    await expect.poll(() => dialog.locator(".field-error").first().textContent()).toBe("The bank has no account with this number at this branch.");
    await dialog.getByTestId("settlement-accountNumber").fill("62001234567");
    await shoot(tabA, "payouts-account-dialog-en-light");
    await dialog.getByTestId("save-settlement-account").click();
    await tabA.getByTestId("payout-hold").waitFor();
    expect(await tabA.getByTestId("account-last4").textContent()).toContain("4567");

    // The next business day the card money is available, and the hold is over.
    const clock = new TestMode(tabA);
    await advanceUntil(clock, () => tabA.getByTestId("balance-available").textContent(), "143,57");
    await expect.poll(() => tabA.getByTestId("payout-hold").count()).toBe(0);

    const tabB = await session.newPage();
    await openPayouts(tabB);
    await tabB.getByTestId("no-payouts").waitFor();

    // The payout is made with the keyboard alone, the focus in sight at every stop.
    await tabA.bringToFront();
    const keys = new Keyboard(tabA);
    await keys.tabTo(byTestId("pay-out"));
    await keys.press("Enter");
    // R 99 999 999 is beyond a 32-bit number of cents: it still reaches the server as a whole
    // number, and the answer is the balance, not a dropped connection.
    await keys.tabTo(byTestId("pay-out-amount"));
    await keys.type("99999999");
    await keys.press("Enter");
    await tabA.getByTestId("pay-out-dialog").getByText("Your available balance does not cover this amount.").waitFor();
    expect(await tabA.getByTestId("connection-state").getAttribute("data-state")).toBe("online");
    await keys.tabTo(byTestId("pay-out-amount"));
    await keys.press("ControlOrMeta+A");
    await keys.type("100");
    await shoot(tabA, "payouts-pay-out-en-light");
    await keys.tabTo(byTestId("confirm-pay-out"));
    await keys.press("Enter");
    await tabA.getByTestId("pay-out-dialog").waitFor({ state: "detached" });

    // Tab B, never reloaded, sees the payout and then its status move.
    await tabB.getByTestId("payouts-table").waitFor();
    await expect.poll(() => tabB.getByTestId("balance-available").textContent()).toContain("43,57");
    await advanceUntil(clock, () => tabB.getByTestId("payout-status").first().textContent(), "Paid");
    await tabB.bringToFront();
    expect(await tabB.getByTestId("payout-fee").first().textContent()).toContain("3,50");
    await shoot(tabB, "payouts-en-light");

    await tabB.getByTestId("open-payout").first().click();
    const panel = tabB.getByTestId("payout-panel");
    await panel.getByTestId("panel-lines").waitFor();
    expect(await panel.getByTestId("panel-amount").textContent()).toContain("100,00");
    expect(await panel.getByTestId("panel-total").textContent()).toContain("100,00");
    // The settled card collection it pays out is listed by its transaction.
    expect(await panel.getByTestId("panel-lines").locator("tbody tr", { hasText: "Collection" }).count()).toBeGreaterThan(0);
    expect(await panel.getByTestId("panel-steps").locator("li").count()).toBe(3);
    await shoot(tabB, "payout-detail-en-light");

    // Money back to a customer from the customer screen; the payouts tab shows it live.
    const customerId = await createRecord(tabA, "test", {
      t: "CreateCustomer",
      input: { name: "Sipho Mokoena", email: "sipho@example.co.za", cellphone: "", idNumber: "", addressLine1: "", addressLine2: "", city: "", postalCode: "", reference: "" },
    });
    await createRecord(tabA, "test", {
      t: "AddBankAccount",
      customerId,
      input: { bank: "capitec", branchCode: "470010", accountType: "savings", holderName: "S Mokoena", accountNumber: "1209876543" },
    });
    await tabA.bringToFront();
    await tabA.goto(`/customers/${customerId}`);
    await tabA.getByTestId("pay-to-customer").click();
    const pay = tabA.getByTestId("pay-customer-dialog");
    await pay.getByTestId("pay-customer-amount").fill("10");
    await pay.getByTestId("pay-customer-reason").fill("Double debit in March");
    await shoot(tabA, "pay-to-customer-en-light");
    await pay.getByTestId("confirm-pay-customer").click();
    await pay.waitFor({ state: "detached" });
    await expect.poll(() => tabB.getByTestId("open-payout").count()).toBe(2);

    // A paid debit order is paid back from its transaction screen, amount and debit filled in;
    // the payout and the transaction link to each other.
    await createRecord(tabA, "test", {
      t: "CreatePayment",
      input: eftDebitOrder({ customerId, accountNumber: "4000000001", amountCents: 2_000, date: addDays(await clock.today(), 7), kind: "once", reference: "GYM-REFUND" }),
    });
    const transactions = new TransactionsList(tabA);
    await transactions.openFromNav();
    const row = transactions.rows().filter({ hasText: "GYM-REFUND" });
    await clock.advance("week");
    await clock.waitUntilPlayed();
    const debitStatus = async () => ((await row.count()) > 0 ? row.getByTestId("transaction-status").textContent() : null);
    await advanceUntil(clock, debitStatus, "Paid");
    const transactionId = (await row.getAttribute("data-transaction-id")) ?? "";
    await row.locator("a").first().click();
    await tabA.getByTestId("transaction-detail").waitFor();
    await tabA.getByTestId("pay-back-to-customer").click();
    const payBack = tabA.getByTestId("pay-customer-dialog");
    expect(await payBack.getByTestId("pay-customer-amount").inputValue()).toBe("20.00");
    // The account the debit came from (the debit order's own, ending in 0001), not the customer's first.
    expect(await payBack.getByTestId("pay-customer-account").locator("option:checked").textContent()).toContain("0001");
    expect(await payBack.getByTestId("pay-customer-reason").inputValue()).toBe("Refund of debit order GYM-REFUND");
    await shoot(tabA, "transaction-pay-back-en-light");
    await payBack.getByTestId("confirm-pay-customer").click();
    await payBack.waitFor({ state: "detached" });
    await tabA.getByTestId("transaction-payout-link").click();
    const refundPanel = tabA.getByTestId("payout-panel");
    await refundPanel.getByTestId("panel-transaction").waitFor();
    expect(await refundPanel.getByTestId("panel-transaction").textContent()).toBe(transactionId);
    expect(await refundPanel.getByTestId("panel-amount").textContent()).toContain("23,50");
    await refundPanel.getByTestId("panel-transaction").click();
    await tabA.getByTestId("transaction-detail").waitFor();
    expect(new URL(tabA.url()).pathname).toBe(`/payments/transactions/${transactionId}`);
    await tabA.close();
    await tabB.close();
  });

  it("takes the hold banner away when the 24 hours are over, without a reload", { timeout: 60_000 }, async () => {
    const page = await session.newPage();
    // The page's own clock, so the 24 hours can pass at once; the server's stay real.
    await page.clock.install();
    await openPayouts(page);
    await page.getByTestId("change-account").click();
    const dialog = page.getByTestId("settlement-account-dialog");
    await dialog.getByTestId("settlement-bank").selectOption("fnb");
    await dialog.getByTestId("settlement-holderName").fill("Karoo Gym (Pty) Ltd");
    await dialog.getByTestId("settlement-accountNumber").fill("62001234567");
    await dialog.getByTestId("settlement-confirmation").fill(password);
    await dialog.getByTestId("save-settlement-account").click();
    await page.getByTestId("payout-hold").waitFor();
    await page.clock.fastForward("23:59:00");
    expect(await page.getByTestId("payout-hold").count()).toBe(1);
    await page.clock.fastForward("00:02:00");
    await page.getByTestId("payout-hold").waitFor({ state: "detached" });
    await page.close();
  });

  it("looks right in Afrikaans and in dark mode", { timeout: 60_000 }, async () => {
    const dark = await openBrowser({ colorScheme: "dark" });
    try {
      const page = await dark.newPage();
      await signUpFresh(page, "payouts-looks");
      await openPayouts(page);
      await shoot(page, "payouts-en-dark");
      const shell = new Shell(page);
      await shell.chooseLanguage("afr");
      await page.getByRole("heading", { name: "Uitbetalings", exact: true }).first().waitFor();
      await shoot(page, "payouts-afr-dark");
      await shell.chooseTheme("light");
      await shoot(page, "payouts-afr-light");
    } finally {
      await dark.close();
    }
  });
});
