import { describe, expect, it } from "vitest";
import { openBrowser, shootWindow } from "./browser";
import { eftDebitOrder } from "./collectionsSeed";
import { createRecord, runCommand } from "./dashboardSeed";
import { signUpFresh } from "./flows";
import { csvOf, EFT_ONCE_HEADER, eftOnceRow, inDays } from "./importsCsv";
import { PaymentDetailPage } from "./pages/CollectionPages";
import { payByCard } from "./pages/CommercePages";
import { TestMode } from "./pages/DashboardPages";
import { ImportDialog, ImportPage } from "./pages/ImportPages";
import { byTestId, Keyboard } from "./pages/Keyboard";
import { Shell } from "./pages/Shell";
import { customerInput } from "./seed";

describe("the keyboard alone", () => {
  // No click from here on: Tab, Shift+Tab, Enter, Space and the arrow keys, with the focus in
  // sight at every stop.
  it("signs in and makes a new payment", { timeout: 90_000 }, async () => {
    const session = await openBrowser();
    try {
      const page = await session.newPage();
      const account = await signUpFresh(page, "keys");
      await new TestMode(page).switchOn();
      const customerId = await createRecord(page, "test", { t: "CreateCustomer", input: customerInput("Ayanda Khumalo", "ayanda@example.co.za") });
      await createRecord(page, "test", {
        t: "CreatePayment",
        input: eftDebitOrder({ customerId, accountNumber: "4000000001", amountCents: 25_000, date: inDays(3), kind: "once", reference: "KEYS-FIRST" }),
      });
      await new Shell(page).signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");

      const keys = new Keyboard(page);
      await page.goto("/auth/login");
      await page.getByTestId("login-page").waitFor();
      await keys.tabTo('input[type="email"]');
      await keys.type(account.email);
      await keys.press("Tab");
      await keys.expectVisibleFocus();
      await keys.type(account.password);
      await keys.press("Enter");
      await page.waitForURL((url) => url.pathname === "/");
      await new Shell(page).waitUntilLive();

      await page.goto("/payments/one-time");
      await page.getByTestId("payments-page-once").waitFor();
      await new Shell(page).waitUntilLive();
      await keys.tabTo(byTestId("new-payment"));
      await keys.press("Enter");
      const dialog = page.getByTestId("new-payment-dialog");
      await dialog.waitFor();
      await keys.tabTo(byTestId("customer-picker-search"));
      await keys.type("Ayanda");
      await dialog.getByTestId("customer-option").filter({ hasText: "Ayanda Khumalo" }).waitFor();
      await keys.tabTo(byTestId("customer-option"));
      await keys.press("Enter");
      await shootWindow(page, "keyboard-new-payment-en-light");
      await keys.tabTo(byTestId("payment-amount-input"));
      await keys.type("75");
      await keys.tabTo(byTestId("payment-dateToProcess"));
      await keys.typeDate(inDays(5));
      expect(await dialog.getByTestId("payment-dateToProcess").inputValue()).toBe(inDays(5));
      await keys.tabTo(byTestId("payment-submit"));
      await shootWindow(page, "keyboard-new-payment-filled-en-light");
      await keys.press("Enter");
      await new PaymentDetailPage(page).waitForIt();
      expect(page.url()).toMatch(/\/payments\/one-time\/pay_/);
      await page.getByTestId("payment-detail").getByText("R 75,00").first().waitFor();
    } finally {
      await session.close();
    }
  });

  // The file is chosen in the browser's own file dialog, opened from the focused file control
  // with Space, as a keyboard user does; the test answers that dialog, not the page.
  it("imports a spreadsheet", { timeout: 90_000 }, async () => {
    const session = await openBrowser();
    try {
      const page = await session.newPage();
      await signUpFresh(page, "keys-import");
      await page.goto("/payments/one-time");
      await page.getByTestId("payments-page-once").waitFor();
      await new Shell(page).waitUntilLive();
      const keys = new Keyboard(page);
      await keys.tabTo(byTestId("import-open"));
      await keys.press("Enter");
      const dialog = new ImportDialog(page);
      await dialog.root().waitFor();

      // A closed list takes the next choice with the arrow key; the once-off EFT layout is the last.
      const template = dialog.root().getByTestId("import-template");
      await keys.tabTo(byTestId("import-template"));
      for (let press = 0; press < 3 && (await template.inputValue()) !== "eft_debit_order"; press += 1) await keys.press("ArrowDown");
      expect(await template.inputValue()).toBe("eft_debit_order");

      const name = "keyboard-debit-orders.csv";
      const rows = [eftOnceRow("KEYS-IMP-1", "Sipho", "Dlamini"), eftOnceRow("KEYS-IMP-2", "Anele", "Mokoena", { Amount: "89.90" }), eftOnceRow("KEYS-IMP-3", "Johan", "Botha", { Email: "johan.at.example" })];
      await keys.tabTo(byTestId("import-file"));
      await shootWindow(page, "keyboard-import-file-focus-en-light");
      const chooser = page.waitForEvent("filechooser");
      await keys.press("Space");
      await (await chooser).setFiles({ name, mimeType: "text/csv", buffer: Buffer.from(csvOf(EFT_ONCE_HEADER, rows), "utf8") });
      await dialog.root().getByTestId("import-file-chosen").filter({ hasText: name }).waitFor();
      await keys.tabTo(byTestId("import-upload"));
      await keys.press("Enter");

      await dialog.preview().waitFor();
      expect([await dialog.count("rows"), await dialog.count("valid"), await dialog.count("invalid")]).toEqual([3, 2, 1]);
      await keys.tabTo(byTestId("import-confirm"));
      await shootWindow(page, "keyboard-import-preview-en-light");
      await keys.press("Enter");

      await page.waitForURL((url) => url.pathname.startsWith("/payments/one-time/imports/"));
      const record = new ImportPage(page);
      await record.waitForIt();
      await expect.poll(() => record.count("committed")).toBe(2);
      expect(await record.count("invalid")).toBe(1);
      await expect.poll(() => record.paymentRows().count()).toBe(2);
      expect(await record.paymentRows().allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("Sipho Dlamini"), expect.stringContaining("Anele Mokoena")]));
    } finally {
      await session.close();
    }
  });

  it("requests a payout and opens it", { timeout: 120_000 }, async () => {
    const session = await openBrowser();
    try {
      const page = await session.newPage();
      const account = await signUpFresh(page, "keys-payout");
      const clock = new TestMode(page);
      await clock.switchOn();
      // Money in: a payer pays a test-mode pay page by card; the account it goes out to is set.
      const pageId = await createRecord(page, "test", {
        t: "CreatePayPage",
        input: { title: "Yoga class", description: "", amountMode: "fixed", amountCents: 15_000, kind: "once", methods: ["card"], reference: "YOGA", colour: "#1e3a8a" },
      });
      const payer = await session.newPage();
      await payByCard(payer, pageId, { name: "Lerato Dlamini", email: "lerato@example.co.za", cardNumber: "4242424242424242" });
      await payer.close();
      await runCommand(page, "test", {
        t: "SetSettlementAccount",
        input: { bank: "fnb", branchCode: "250655", accountType: "current", holderName: "Karoo Gym (Pty) Ltd", accountNumber: "62001234567" },
        confirmation: account.password,
      });
      await page.goto("/account/payouts");
      await page.getByTestId("payouts-page").waitFor();
      await new Shell(page).waitUntilLive();
      await clock.switchOn();
      await clock.advanceDaysUntil(
        async () => (await page.getByTestId("payout-hold").count()) === 0 && ((await page.getByTestId("balance-available").textContent()) ?? "").includes("143,57"),
        "the card money available to pay out",
      );

      const keys = new Keyboard(page);
      await keys.tabTo(byTestId("pay-out"));
      await keys.press("Enter");
      const dialog = page.getByTestId("pay-out-dialog");
      await dialog.waitFor();
      await keys.tabTo(byTestId("pay-out-amount"));
      await keys.type("100");
      await keys.tabTo(byTestId("confirm-pay-out"));
      await shootWindow(page, "keyboard-pay-out-en-light");
      await keys.press("Enter");
      await dialog.waitFor({ state: "detached" });

      const row = page.getByTestId("payouts-table").locator("tbody tr");
      await expect.poll(() => row.count()).toBe(1);
      // Amounts are written with a no-break space after the R.
      expect(await row.textContent()).toMatch(/R\s100,00/);
      await expect.poll(() => page.getByTestId("balance-available").textContent()).toContain("43,57");
      await keys.tabTo(byTestId("open-payout"));
      await keys.press("Enter");
      const panel = page.getByTestId("payout-panel");
      await panel.getByTestId("panel-amount").waitFor();
      expect(await panel.getByTestId("panel-amount").textContent()).toContain("100,00");
      await shootWindow(page, "keyboard-payout-panel-en-light");
      await keys.press("Escape");
      await panel.waitFor({ state: "detached" });
    } finally {
      await session.close();
    }
  });
});
