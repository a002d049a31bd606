import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, uniqueEmail, type Session } from "./browser";
import { eftDebitOrder } from "./collectionsSeed";
import { createRecord, debiCheckPayer, runCommand, weeklyDebiCheck } from "./dashboardSeed";
import { joinTeam, signUpFresh } from "./flows";
import { csvOf, EFT_ONCE_HEADER, eftOnceRow } from "./importsCsv";
import type { Account } from "./pages/AuthPages";
import { BusinessInfoPage } from "./pages/BusinessInfoPage";
import { PaymentDetailPage, PaymentsListPage } from "./pages/CollectionPages";
import { payByCard, PayPagesPage } from "./pages/CommercePages";
import { CustomerDetailPage, CustomersListPage } from "./pages/CustomerPages";
import { HomeDashboard, TestMode, TransactionsList } from "./pages/DashboardPages";
import { ApiTokensPage, WebhooksPages } from "./pages/DeveloperPages";
import { HistoryListPage } from "./pages/HistoryPages";
import { ImportDialog, ImportsList } from "./pages/ImportPages";
import { Insights } from "./pages/InsightsPages";
import { TeamAdmin } from "./pages/PlacePages";
import { WatchedScreen } from "./pages/WatchedScreen";
import { customerInput } from "./seed";

// How long a teammate's change may take to reach the open screen before the walk calls it missing.
const FOLLOW = { timeout: 15_000 };

/** Rand as the screens show it ("R 150,00") in cents. */
function cents(text: string | null): number {
  return Number((text ?? "").replace(/\D/g, ""));
}

function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const sum = (rows: string[][], column: number) => rows.reduce((total, row) => total + Number(row[column]), 0);

// Two people of one business, each signed in in a browser of their own: the owner changes
// things, the second member (an admin, who reads every screen) keeps a screen open and must
// see the change without a reload. Everything happens on test data, where a saved test card
// moves money at once.
describe("every main screen follows a teammate's change without a reload", () => {
  let owner: Session;
  let member: Session;
  let ownerTab: Page;
  let memberTab: Page;
  let watched: WatchedScreen;
  let ownerAccount: Account;
  let today = "";
  let cardId = "";
  let payerId = "";
  const timings: [string, number][] = [];

  /**
   * Waits until the member's open screen shows each part of the owner's change (all at once,
   * timed from the same moment) and checks the screen was never loaded again to show it. The
   * times are only as fine as the waits look again: within some tens of milliseconds.
   */
  async function memberSees(parts: Record<string, () => Promise<unknown>>): Promise<void> {
    const started = performance.now();
    await Promise.all(
      Object.entries(parts).map(async ([screen, shown]) => {
        try {
          await shown();
        } catch (error) {
          throw new Error(`${screen}: the teammate's change did not show without a reload`, { cause: error });
        }
        const ms = Math.round(performance.now() - started);
        timings.push([screen, ms]);
        console.log(`${screen}: the teammate's change showed after ${ms} ms`);
      }),
    );
    expect(await watched.stillOpen(), `the member's screen was loaded again (${Object.keys(parts).join(", ")})`).toBe(true);
  }

  /** The owner charges the saved test card: a paid card transaction and order, at once. */
  async function charge(amountCents: number, reference: string): Promise<void> {
    await runCommand(ownerTab, "test", { t: "ChargeCard", cardId, amountCents, reference });
  }

  beforeAll(async () => {
    owner = await openBrowser();
    member = await openBrowser();
    ownerTab = await owner.newPage();
    ownerAccount = await signUpFresh(ownerTab, "walk-owner");
    memberTab = (await joinTeam(ownerTab, member, "admin", "Pieter Botha")).page;
    watched = new WatchedScreen(memberTab);
    for (const tab of [ownerTab, memberTab]) await new TestMode(tab).switchOn();
    today = await new TestMode(ownerTab).today();

    // A payer keeps a test card on file by paying a membership page; the owner charges it later.
    const membership = await createRecord(ownerTab, "test", {
      t: "CreatePayPage",
      input: { title: "Karoo Gym membership", description: "", amountMode: "fixed", amountCents: 12_000, kind: "recurring", interval: "monthly", methods: ["card"], reference: "CLUB", colour: "#1e3a8a" },
    });
    const payer = await owner.newPage();
    await payByCard(payer, membership, { name: "Lerato Mokoena", email: "lerato@example.co.za", cardNumber: "4242424242424242" });
    await payer.close();
    await ownerTab.goto("/cards");
    const card = ownerTab.getByTestId("card-row").first();
    await card.waitFor();
    cardId = (await card.getAttribute("data-card-id")) ?? "";
    payerId = await createRecord(ownerTab, "test", { t: "CreateCustomer", input: debiCheckPayer("Sipho Dlamini", "sipho@example.co.za") });
  }, 120_000);

  afterAll(async () => {
    console.log(`the member's screens followed: ${timings.map(([screen, ms]) => `${screen} ${ms} ms`).join("; ")}`);
    await member?.close();
    await owner?.close();
  });

  test("home: the figures, the upcoming debits and the live feed", async () => {
    const home = new HomeDashboard(memberTab);
    await watched.open("/home", home.figure("collected-today"));
    const collectedToday = cents(await home.figure("collected-today").textContent());

    const thandi = await createRecord(ownerTab, "test", { t: "CreateCustomer", input: debiCheckPayer("Thandi Nkosi", "thandi@example.co.za") });
    await createRecord(ownerTab, "test", { t: "CreatePayment", input: weeklyDebiCheck(thandi, today, "4000000001", 49_999) });
    await memberSees({ "home: upcoming debits": () => home.upcomingRows().filter({ hasText: "Thandi Nkosi" }).waitFor() });

    await charge(10_100, "WALK-HOME");
    await memberSees({
      "home: live feed": () => home.feedRows().filter({ hasText: "101,00" }).waitFor(),
      "home: figures": () => expect.poll(async () => cents(await home.figure("collected-today").textContent()), FOLLOW).toBe(collectedToday + 10_100),
    });
  });

  test("customers: the list and a customer's page", async () => {
    const list = new CustomersListPage(memberTab);
    await watched.open("/customers", memberTab.getByTestId("customer-table"));
    const ownerList = new CustomersListPage(ownerTab);
    await ownerList.open();
    await ownerList.create({ name: "Naledi Zulu", email: "naledi@example.co.za" });
    await ownerTab.waitForURL((url) => url.pathname.startsWith("/customers/cus_"));
    await memberSees({ "customers list": () => list.row("Naledi Zulu").waitFor() });

    const detail = new CustomerDetailPage(ownerTab);
    await detail.waitForIt();
    await watched.open(new URL(ownerTab.url()).pathname, new CustomerDetailPage(memberTab).title());
    await detail.edit({ city: "Graaff-Reinet" });
    await memberSees({ "customer page": () => memberTab.getByTestId("customer-detail").getByText("Graaff-Reinet").waitFor() });
  });

  test("payments: the once-off and recurring lists and a payment's page", async () => {
    // Each payment brings a new mandate on a new bank account, so each its own account number.
    const loaded = memberTab.getByTestId("payment-table").or(memberTab.getByTestId("payments-empty"));
    const row = (id: string) => memberTab.locator(`[data-testid="payment-row"][data-payment-id="${id}"]`);

    await watched.open("/payments/one-time", loaded);
    const once = await createRecord(ownerTab, "test", {
      t: "CreatePayment",
      input: eftDebitOrder({ customerId: payerId, accountNumber: "4000000101", amountCents: 23_400, date: addDays(today, 5), kind: "once", reference: "WALK-ONCE" }),
    });
    await memberSees({ "one-time payments list": () => row(once).waitFor() });

    await watched.open("/payments/recurring", loaded);
    const recurring = await createRecord(ownerTab, "test", {
      t: "CreatePayment",
      input: eftDebitOrder({ customerId: payerId, accountNumber: "4000000102", amountCents: 34_500, date: addDays(today, 7), kind: "recurring", reference: "WALK-MONTHLY" }),
    });
    await memberSees({ "recurring payments list": () => row(recurring).waitFor() });

    const path = `/payments/recurring/${recurring}`;
    await watched.open(path, memberTab.getByTestId("payment-detail").getByTestId("payment-status"));
    await ownerTab.goto(path);
    const payment = new PaymentDetailPage(ownerTab);
    await payment.waitForIt();
    await payment.act("pause");
    await memberSees({
      "payment page": () => memberTab.locator('[data-testid="payment-detail"] [data-testid="payment-status"][data-status="paused"]').first().waitFor(),
    });
  });

  test("imports: the spreadsheets imported into a list", async () => {
    const fileName = "walk-debit-orders.csv";
    await watched.open("/payments/one-time", memberTab.getByTestId("payment-table").or(memberTab.getByTestId("payments-empty")));
    await new PaymentsListPage(ownerTab, "one-time").open();
    const dialog = new ImportDialog(ownerTab);
    await dialog.open();
    await dialog.chooseTemplate("eft_debit_order");
    await dialog.upload(fileName, csvOf(EFT_ONCE_HEADER, [eftOnceRow("WALK-001", "Anele", "Mokoena")]));
    await dialog.preview().waitFor();
    await dialog.confirm();
    await ownerTab.waitForURL((url) => url.pathname.startsWith("/payments/one-time/imports/"));
    await memberSees({ "imports list": () => new ImportsList(memberTab).row(fileName).waitFor() });
  });

  test("money: transactions and the payouts' balance and account", async () => {
    const transactions = new TransactionsList(memberTab);
    await watched.open("/payments/transactions", transactions.rows());
    await charge(20_200, "WALK-TXN");
    await memberSees({ transactions: () => transactions.rows().filter({ hasText: "WALK-TXN" }).waitFor() });

    const pending = memberTab.getByTestId("balance-pending");
    await watched.open("/account/payouts", pending);
    // The charge less its card fee waits to become available: the pending balance grows.
    const pendingBefore = cents(await pending.textContent());
    await charge(30_300, "WALK-PAYOUT");
    await memberSees({ "payouts: balance": () => expect.poll(async () => cents(await pending.textContent()), FOLLOW).toBeGreaterThan(pendingBefore) });

    await runCommand(ownerTab, "test", {
      t: "SetSettlementAccount",
      input: { bank: "fnb", branchCode: "250655", accountType: "current", holderName: "Karoo Gym (Pty) Ltd", accountNumber: "62001234567" },
      confirmation: ownerAccount.password,
    });
    await memberSees({ "payouts: settlement account": () => memberTab.getByTestId("account-last4").filter({ hasText: "4567" }).waitFor() });
  });

  test("figures: insights", async () => {
    const insights = new Insights(memberTab);
    await watched.open("/insights", insights.chart("collected"));
    await insights.showTable("collected");
    // The table's third column counts the period's collections.
    const collections = sum(await insights.rows("collected"), 2);
    await charge(40_400, "WALK-INSIGHTS");
    await memberSees({ insights: () => expect.poll(async () => sum(await insights.rows("collected"), 2), FOLLOW).toBe(collections + 1) });
  });

  test("figures: the statement", async () => {
    const collected = memberTab.getByTestId("summary-collected-card");
    await watched.open("/download/summary", collected, { framed: false });
    const before = Number(await collected.getAttribute("data-cents"));
    await charge(50_500, "WALK-STATEMENT");
    await memberSees({ statement: () => memberTab.locator(`[data-testid="summary-collected-card"][data-cents="${before + 50_500}"]`).waitFor() });
  });

  test("team: the members and invites, and the history", async () => {
    await watched.open("/account/teams", memberTab.getByTestId("members-table"));
    const invited = uniqueEmail("walk-invite");
    await new TeamAdmin(ownerTab).invite(invited, "viewer");
    await memberSees({ "team list": () => memberTab.getByTestId(`invite-${invited}`).waitFor() });

    const history = new HistoryListPage(memberTab);
    await watched.open("/account/history", history.rows());
    await createRecord(ownerTab, "test", { t: "CreateCustomer", input: customerInput("Zanele Mthembu", "zanele@example.co.za") });
    await memberSees({ history: () => history.rows().filter({ hasText: "Zanele Mthembu" }).waitFor() });
  });

  test("commerce: payment pages and cards", async () => {
    const memberPages = new PayPagesPage(memberTab);
    await watched.open("/payments/pages", memberTab.getByTestId("pay-page-row"));
    const pages = new PayPagesPage(ownerTab);
    await pages.open();
    await pages.startNew();
    await pages.fill({ title: "Braai tickets", reference: "BRAAI", amount: "85" });
    await pages.submitAndClose();
    await memberSees({ "payment pages": () => memberPages.row("Braai tickets").waitFor() });

    const card = memberTab.locator(`[data-testid="card-row"][data-card-id="${cardId}"]`);
    await watched.open("/cards", card);
    await runCommand(ownerTab, "test", { t: "ScheduleCard", cardId, amountCents: 77_700, interval: "annually", reference: "CLUB", startDate: addDays(today, 30) });
    await memberSees({ cards: () => card.getByTestId("card-schedule").filter({ hasText: "777,00" }).waitFor() });
  });

  test("developers: API tokens and webhooks", async () => {
    await watched.open("/developers/tokens", memberTab.getByTestId("api-token-table").or(memberTab.getByTestId("api-tokens-empty")));
    const tokens = new ApiTokensPage(ownerTab);
    await tokens.open();
    await tokens.create("Walk reader");
    await memberSees({ "API tokens": () => new ApiTokensPage(memberTab).row("Walk reader").waitFor() });

    // Nothing listens there: the endpoint is only listed, never reached.
    const url = "http://127.0.0.1:9/walk-hooks";
    await watched.open("/developers/webhooks", memberTab.getByTestId("webhook-table").or(memberTab.getByTestId("webhooks-empty")));
    const webhooks = new WebhooksPages(ownerTab);
    await webhooks.open();
    await webhooks.add(url, "Walk", ["payment.created"]);
    await webhooks.closeSecret();
    await memberSees({ webhooks: () => new WebhooksPages(memberTab).row(url).waitFor() });
  });

  test("settings: business info and payment methods", async () => {
    const memberInfo = new BusinessInfoPage(memberTab);
    await watched.open("/account/business-info", memberTab.getByTestId("business-info-form"));
    const info = new BusinessInfoPage(ownerTab);
    await info.open();
    await info.fill({ legalName: "Karoo Gym (Pty) Ltd", tradingName: "Karoo Gym Walk", statementName: "KAROOGYM", supportEmail: "help@karoogym.co.za" });
    await info.save();
    await info.saved().waitFor();
    await memberSees({ "business info": () => expect.poll(() => memberInfo.field("tradingName").inputValue(), FOLLOW).toBe("Karoo Gym Walk") });

    const abbreviated = memberTab.getByTestId("debicheck-abbreviatedName");
    await watched.open("/settings/payment-methods", abbreviated);
    await ownerTab.goto("/settings/payment-methods");
    await ownerTab.getByTestId("debicheck-abbreviatedName").fill("KAROO WALK");
    await ownerTab.getByTestId("save-payment-methods").click();
    await ownerTab.getByTestId("payment-methods-saved").waitFor();
    await memberSees({ "payment methods": () => expect.poll(() => abbreviated.inputValue(), FOLLOW).toBe("KAROO WALK") });
  });
});
