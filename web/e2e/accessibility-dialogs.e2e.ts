import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { everySection } from "../src/live/permissions";
import type { PayPageInput } from "../src/protocol/wire";
import { firstLink, visit, type Screen } from "./axeWalk";
import { openBrowser, shootWindow } from "./browser";
import { eftDebitOrder } from "./collectionsSeed";
import { createRecord, runCommand } from "./dashboardSeed";
import { joinTeam, signUpFresh } from "./flows";
import { csvOf, EFT_ONCE_HEADER, eftOnceRow, inDays } from "./importsCsv";
import { seriousViolations } from "./pages/Axe";
import { payByCard } from "./pages/CommercePages";
import { TestMode } from "./pages/DashboardPages";
import { ImportDialog } from "./pages/ImportPages";
import { Shell } from "./pages/Shell";
import { customerInput } from "./seed";

/** A state of a dialog reached from the one before it (a made secret, a checked file). */
type DialogStep = { name: string; act: (page: Page) => Promise<void>; dialog: string };

/** A dialog: the screen it opens on, the control that opens it, and the states it goes through. */
type DialogCase = { name: string; screen: Screen; opener: (page: Page) => Locator; dialog: string; steps?: DialogStep[] };

type Seeded = {
  customerId: string;
  paymentId: string;
  webhookId: string;
  orderId: string;
  memberPath: string;
  mandatePath: string;
};

const byId = (testId: string) => (page: Page) => page.getByTestId(testId).first();
const inRow = (row: string, testId: string) => (page: Page) => page.getByTestId(row).first().getByTestId(testId);

// Whichever the mandate's status offers: each asks first.
const MANDATE_ACTIONS = ["suspend", "resume", "cancel", "resend_authentication", "archive", "restore"];
const mandateAction = (page: Page) => page.locator(MANDATE_ACTIONS.map((action) => `[data-testid="mandate-detail"] [data-testid="mandate-${action}"]`).join(", ")).first();

/**
 * One of each record whose screen opens a dialog, in test mode: a customer with a bank account,
 * a waiting payment, a token, an endpoint, a card kept from a recurring pay page, a paid order,
 * an e-mandate request, a custom role, an invite, a member who joined, and a payout.
 */
async function seedBusiness(page: Page, password: string, team: Awaited<ReturnType<typeof openBrowser>>): Promise<Seeded> {
  const customerId = await createRecord(page, "test", { t: "CreateCustomer", input: customerInput("Sipho Dlamini", "sipho@example.co.za") });
  await createRecord(page, "test", {
    t: "AddBankAccount",
    customerId,
    input: { bank: "capitec", branchCode: "470010", accountType: "savings", holderName: "S Dlamini", accountNumber: "1209876543" },
  });
  await runCommand(page, "test", { t: "CreateApiToken", name: "Accounting sync", mode: "test", permissions: { ...everySection("none"), transactions: "read" }, allowedAddresses: [] });
  const hook = await runCommand(page, "test", { t: "CreateWebhookEndpoint", url: "http://127.0.0.1:9/hooks", description: "Books", eventTypes: ["payment.created"] });
  const webhookId = hook.t === "WebhookSecret" ? hook.endpointId : "";
  const card = { description: "", amountMode: "fixed", amountCents: 15_000, methods: ["card"], colour: "#1e3a8a" } satisfies Partial<PayPageInput>;
  const onceId = await createRecord(page, "test", { t: "CreatePayPage", input: { ...card, title: "Yoga class", kind: "once", reference: "YOGA" } });
  const recurringId = await createRecord(page, "test", { t: "CreatePayPage", input: { ...card, title: "Club membership", kind: "recurring", interval: "monthly", reference: "CLUB" } });
  const payer = await team.newPage();
  await payByCard(payer, onceId, { name: "Lerato Dlamini", email: "lerato@example.co.za", cardNumber: "4242424242424242" });
  // A recurring page paid by card keeps the card on file.
  await payByCard(payer, recurringId, { name: "Lerato Dlamini", email: "lerato@example.co.za", cardNumber: "4242424242424242" });
  await payer.close();
  await runCommand(page, "test", {
    t: "RequestEMandate",
    input: { name: "Naledi Zulu", email: "naledi@example.co.za", cellphone: "082 555 0101", language: "en", method: "debicheck", amountCents: 50_000, maxCents: 60_000, interval: "monthly", startDate: inDays(10), payerMayChange: [] },
  });
  await runCommand(page, "test", { t: "CreateRole", name: "Bookkeeper", grants: { ...everySection("read"), team: "none" } });
  await runCommand(page, "test", { t: "InviteMember", email: "pending@example.co.za", role: "viewer" });

  // A member who joined, so the member screen offers to remove them and to hand over ownership.
  const member = await joinTeam(page, team, "viewer", "Ayanda Khumalo");
  await member.page.close();
  // A fresh load of the teams screen lists the member who joined; it starts in live mode.
  await page.goto("/account/teams");
  await page.getByTestId("teams-page").waitFor();
  await new Shell(page).waitUntilLive();
  await new TestMode(page).switchOn();
  const memberLink = page.getByTestId(`member-${member.email}`).getByRole("link");
  await memberLink.waitFor();
  const memberPath = (await memberLink.getAttribute("href")) ?? "";

  // A payout, once the card money is available and the new account's hold is over.
  await runCommand(page, "test", {
    t: "SetSettlementAccount",
    input: { bank: "fnb", branchCode: "250655", accountType: "current", holderName: "Karoo Gym (Pty) Ltd", accountNumber: "62001234567" },
    confirmation: password,
  });
  await visit(page, { name: "payouts", path: "/account/payouts", ready: "payouts-page" });
  await new TestMode(page).advanceDaysUntil(
    async () => (await page.getByTestId("payout-hold").count()) === 0 && /[1-9]/.test((await page.getByTestId("balance-available").textContent()) ?? ""),
    "money to pay out",
  );
  await runCommand(page, "test", { t: "RequestPayout", amountCents: 5_000 });
  // Made after the clock moved, and due well after it, so it still waits to be collected.
  const paymentId = await createRecord(page, "test", {
    t: "CreatePayment",
    input: eftDebitOrder({ customerId, accountNumber: "4000000001", amountCents: 25_000, date: inDays(30), kind: "once", reference: "AXE-ONCE" }),
  });

  await visit(page, { name: "orders", path: "/commerce/orders", ready: "orders-page" });
  const paid = page.locator('[data-testid="order-row"]:has([data-status="paid"])').first();
  await paid.waitFor();
  const orderId = (await paid.getAttribute("data-order-id")) ?? "";
  // The debit order's mandate, which it runs under.
  const mandatePath = await firstLink(page, { name: "mandates", path: "/mandates", ready: "mandates-page" }, "/mandates/man_");
  return { customerId, paymentId, webhookId, orderId, memberPath, mandatePath };
}

function dialogCases(seeded: Seeded, theme: string): DialogCase[] {
  const screen = (name: string, path: string, ready: string): Screen => ({ name, path, ready });
  const payments = screen("payments-once", "/payments/one-time", "payments-page-once");
  const customer = screen("customer", `/customers/${seeded.customerId}`, "customer-detail");
  const tokens = screen("tokens", "/developers/tokens", "api-tokens-page");
  const webhooks = screen("webhooks", "/developers/webhooks", "webhooks-page");
  const payPages = screen("pay-pages", "/payments/pages", "pay-pages-page");
  const cards = screen("cards", "/cards", "cards-page");
  const teams = screen("teams", "/account/teams", "teams-page");
  const payouts = screen("payouts", "/account/payouts", "payouts-page");
  const eMandates = screen("e-mandates", "/payments/e-mandates", "e-mandates-page");
  return [
    { name: "new payment", screen: payments, opener: byId("new-payment"), dialog: "new-payment-dialog" },
    {
      name: "import",
      screen: payments,
      opener: byId("import-open"),
      dialog: "import-dialog",
      steps: [
        {
          name: "import checked",
          dialog: "import-dialog",
          act: async (page) => {
            const dialog = new ImportDialog(page);
            await dialog.chooseTemplate("eft_debit_order");
            await dialog.upload(`axe-${theme}.csv`, csvOf(EFT_ONCE_HEADER, [eftOnceRow(`AXE-${theme.toUpperCase()}`, "Ayanda", "Khumalo"), eftOnceRow("AXE-BAD", "Thabo", "Nkosi", { Amount: "" })]));
            // One row refused, so the preview shows its table of issues too.
            await dialog.preview().waitFor();
          },
        },
      ],
    },
    { name: "payment cancel", screen: screen("payment", `/payments/one-time/${seeded.paymentId}`, "payment-detail"), opener: byId("payment-cancel"), dialog: "confirm-dialog" },
    { name: "mandate action", screen: screen("mandate", seeded.mandatePath, "mandate-detail"), opener: mandateAction, dialog: "confirm-dialog" },
    { name: "new customer", screen: screen("customers", "/customers", "customers-page"), opener: byId("new-customer"), dialog: "create-customer-dialog" },
    { name: "edit customer", screen: customer, opener: byId("edit-customer"), dialog: "edit-customer-dialog" },
    { name: "archive customer", screen: customer, opener: byId("archive-customer"), dialog: "archive-dialog" },
    { name: "add bank account", screen: customer, opener: byId("add-bank-account"), dialog: "add-bank-account-dialog" },
    { name: "remove bank account", screen: customer, opener: byId("remove-bank-account"), dialog: "remove-bank-account-dialog" },
    { name: "new payment for a customer", screen: customer, opener: byId("customer-new-payment-recurring"), dialog: "new-payment-dialog" },
    { name: "pay to customer", screen: customer, opener: byId("pay-to-customer"), dialog: "pay-customer-dialog" },
    { name: "request e-mandate", screen: eMandates, opener: byId("request-e-mandate"), dialog: "e-mandate-dialog" },
    { name: "e-mandate link as a QR code", screen: eMandates, opener: inRow("e-mandate-request-row", "e-mandate-qr-button"), dialog: "e-mandate-qr-dialog" },
    { name: "resend e-mandate request", screen: eMandates, opener: inRow("e-mandate-request-row", "e-mandate-resend"), dialog: "confirm-dialog" },
    { name: "cancel e-mandate request", screen: eMandates, opener: inRow("e-mandate-request-row", "e-mandate-cancel"), dialog: "confirm-dialog" },
    { name: "new pay page", screen: payPages, opener: byId("new-pay-page"), dialog: "pay-page-dialog" },
    { name: "edit pay page", screen: payPages, opener: inRow("pay-page-row", "pay-page-edit"), dialog: "pay-page-dialog" },
    { name: "share pay page", screen: payPages, opener: inRow("pay-page-row", "pay-page-share"), dialog: "share-dialog" },
    { name: "charge card", screen: cards, opener: inRow("card-row", "card-charge"), dialog: "charge-dialog" },
    { name: "schedule card", screen: cards, opener: inRow("card-row", "card-schedule-edit"), dialog: "schedule-dialog" },
    { name: "remove card", screen: cards, opener: inRow("card-row", "card-remove"), dialog: "card-remove-dialog" },
    {
      name: "order",
      screen: screen("orders", "/commerce/orders", "orders-page"),
      opener: (page) => page.locator(`[data-testid="order-row"][data-order-id="${seeded.orderId}"]`).getByTestId("order-open"),
      dialog: "order-detail",
      steps: [{ name: "refund order", dialog: "order-confirm", act: (page) => page.getByTestId("order-refund").click() }],
    },
    {
      name: "settlement account",
      screen: payouts,
      opener: byId("change-account"),
      dialog: "settlement-account-dialog",
      // The form's errors as the server names them, each under its field.
      steps: [{ name: "settlement account errors", dialog: "settlement-account-dialog", act: (page) => page.getByTestId("save-settlement-account").click() }],
    },
    { name: "pay out", screen: payouts, opener: byId("pay-out"), dialog: "pay-out-dialog" },
    { name: "payout", screen: payouts, opener: byId("open-payout"), dialog: "payout-panel" },
    { name: "invite member", screen: teams, opener: byId("invite-member"), dialog: "invite-dialog" },
    { name: "revoke invite", screen: teams, opener: byId("revoke-invite"), dialog: "revoke-invite-dialog" },
    { name: "new role", screen: teams, opener: byId("new-role"), dialog: "role-editor" },
    { name: "edit role", screen: teams, opener: byId("edit-role"), dialog: "role-editor" },
    { name: "delete role", screen: teams, opener: byId("delete-role"), dialog: "delete-role-dialog" },
    { name: "remove member", screen: screen("member", seeded.memberPath, "member-page"), opener: byId("remove-member"), dialog: "remove-dialog" },
    { name: "transfer ownership", screen: screen("member", seeded.memberPath, "member-page"), opener: byId("transfer-ownership"), dialog: "transfer-dialog" },
    {
      name: "new API token",
      screen: tokens,
      opener: byId("api-token-create"),
      dialog: "api-token-dialog",
      steps: [
        {
          name: "API token made",
          dialog: "api-token-dialog",
          act: async (page) => {
            await page.getByTestId("api-token-name").fill(`Reports ${theme}`);
            await page.getByTestId("api-token-access-customers").selectOption("read");
            await page.getByTestId("api-token-submit").click();
            await page.getByTestId("api-token-secret").waitFor();
          },
        },
      ],
    },
    {
      name: "roll API token",
      screen: tokens,
      opener: inRow("api-token-row", "api-token-roll"),
      dialog: "api-token-roll-dialog",
      steps: [{ name: "API token rolled", dialog: "api-token-rolled", act: (page) => page.getByTestId("api-token-roll-confirm").click() }],
    },
    { name: "revoke API token", screen: tokens, opener: inRow("api-token-row", "api-token-revoke"), dialog: "confirm-dialog" },
    {
      name: "new webhook endpoint",
      screen: webhooks,
      opener: byId("webhook-add"),
      dialog: "webhook-endpoint-dialog",
      steps: [
        // The form's own findings first, then the secret of the endpoint made.
        { name: "webhook endpoint errors", dialog: "webhook-endpoint-dialog", act: (page) => page.getByTestId("webhook-save").click() },
        {
          name: "webhook endpoint made",
          dialog: "webhook-endpoint-dialog",
          act: async (page) => {
            await page.getByTestId("webhook-url").fill(`http://127.0.0.1:9/${theme}`);
            await page.getByTestId("webhook-event-payment.created").check();
            await page.getByTestId("webhook-save").click();
            await page.getByTestId("webhook-secret").waitFor();
          },
        },
      ],
    },
    { name: "edit webhook endpoint", screen: webhooks, opener: inRow("webhook-row", "webhook-edit"), dialog: "webhook-endpoint-dialog" },
    { name: "pause webhook endpoint", screen: webhooks, opener: inRow("webhook-row", "webhook-pause"), dialog: "confirm-dialog" },
    { name: "delete webhook endpoint", screen: webhooks, opener: inRow("webhook-row", "webhook-delete"), dialog: "confirm-dialog" },
    {
      name: "roll webhook secret",
      screen: screen("webhook", `/developers/webhooks/${seeded.webhookId}`, "webhook-endpoint-page"),
      opener: byId("webhook-roll"),
      dialog: "confirm-dialog",
      steps: [{ name: "webhook secret rolled", dialog: "webhook-rolled", act: (page) => page.getByTestId("confirm-action").click() }],
    },
  ];
}

/** Closes every open dialog with Escape, the way a keyboard user leaves one. */
async function closeDialogs(page: Page): Promise<void> {
  for (let press = 0; press < 3 && (await page.locator('[role="dialog"]').count()) > 0; press += 1) await page.keyboard.press("Escape");
  await page.locator('[role="dialog"]').first().waitFor({ state: "detached" });
}

async function check(page: Page, cases: DialogCase[], theme: string, findings: string[]): Promise<void> {
  for (const dialogCase of cases) {
    await visit(page, dialogCase.screen);
    await dialogCase.opener(page).click();
    const states = [{ name: dialogCase.name, dialog: dialogCase.dialog, act: async () => undefined }, ...(dialogCase.steps ?? [])];
    for (const state of states) {
      await state.act(page);
      await page.getByTestId(state.dialog).waitFor();
      // The whole page: the dialog, and the page under it hidden from assistive technology.
      findings.push(...(await seriousViolations(page, `${state.name} (${theme})`)));
    }
    await closeDialogs(page);
  }
}

describe("accessibility of dialogs", () => {
  // Every dialog a main screen opens, open, in light and then in dark: axe-core's WCAG 2.1 A and
  // AA rules find nothing serious or critical with it open.
  // About 55 s alone on a quiet two-core machine, 100 s on a busy one; the timeout leaves room.
  it("every dialog of the main screens passes axe-core in light and dark", { timeout: 240_000 }, async () => {
    const session = await openBrowser();
    const team = await openBrowser();
    try {
      const page = await session.newPage();
      const account = await signUpFresh(page, "axe-dialogs");
      await new TestMode(page).switchOn();
      const seeded = await seedBusiness(page, account.password, team);
      const findings: string[] = [];

      await check(page, dialogCases(seeded, "light"), "light", findings);
      await visit(page, { name: "new payment", path: "/payments/one-time", ready: "payments-page-once" });
      await page.getByTestId("new-payment").click();
      await shootWindow(page, "axe-dialog-new-payment-en-light");
      await closeDialogs(page);

      await page.emulateMedia({ colorScheme: "dark" });
      await expect.poll(() => new Shell(page).htmlHasDark()).toBe(true);
      await check(page, dialogCases(seeded, "dark"), "dark", findings);
      await visit(page, { name: "payouts", path: "/account/payouts", ready: "payouts-page" });
      await page.getByTestId("change-account").click();
      await page.getByTestId("save-settlement-account").click();
      await page.getByTestId("settlement-account-dialog").locator(".field-error").first().waitFor();
      await shootWindow(page, "axe-dialog-settlement-errors-en-dark");
      await closeDialogs(page);

      expect(findings, `axe-core found serious or critical violations:\n${findings.join("\n")}`).toEqual([]);
    } finally {
      await team.close();
      await session.close();
    }
  });
});
