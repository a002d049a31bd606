import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { everySection } from "../src/live/permissions";
import { firstLink, visit, type Screen } from "./axeWalk";
import { openBrowser, shootWindow } from "./browser";
import { eftDebitOrder } from "./collectionsSeed";
import { createRecord, runCommand } from "./dashboardSeed";
import { signUpFresh } from "./flows";
import { csvOf, EFT_ONCE_HEADER, eftOnceRow, inDays } from "./importsCsv";
import { seriousViolations, transitionsDone } from "./pages/Axe";
import { payByCard } from "./pages/CommercePages";
import { TestMode } from "./pages/DashboardPages";
import { LoginPage } from "./pages/AuthPages";
import { ImportDialog } from "./pages/ImportPages";
import { ProfilePage } from "./pages/ProfilePage";
import { BackupCodeSignInPage } from "./pages/RecoveryPages";
import { Shell } from "./pages/Shell";
import { customerInput } from "./seed";
import { freshCode } from "./totp";

// The screens a guest sees; the tokens are made up, so the pages show how they answer a bad link.
const GUEST_SCREENS: Screen[] = [
  { name: "sign-in", path: "/auth/login", ready: "login-page" },
  { name: "sign-up", path: "/auth/signup", ready: "signup-page" },
  { name: "forgot", path: "/auth/forgot", ready: "forgot-page" },
  { name: "reset", path: "/auth/reset/not-a-real-token", ready: "reset-page" },
  { name: "invite", path: "/account/teams/invite/not-a-real-token", ready: "invite-page" },
  { name: "verify-email", path: "/account/teams/email/verify/not-a-real-token", ready: "verify-email-page" },
];

type Seeded = { customerId: string; onceId: string; recurringId: string; webhookId: string; importPath: string };

// One of each record the screens show, made in test mode over the page's own session.
async function seedBusiness(page: Page, payer: Page): Promise<Seeded> {
  const customerId = await createRecord(page, "test", { t: "CreateCustomer", input: customerInput("Sipho Dlamini", "sipho@example.co.za") });
  const debit = (kind: "once" | "recurring", reference: string, days: number, accountNumber: string) =>
    eftDebitOrder({ customerId, accountNumber, amountCents: 25_000, date: inDays(days), kind, reference });
  const onceId = await createRecord(page, "test", { t: "CreatePayment", input: debit("once", "AXE-ONCE", 3, "4000000001") });
  const recurringId = await createRecord(page, "test", { t: "CreatePayment", input: debit("recurring", "AXE-WEEKLY", 7, "4000000002") });
  await runCommand(page, "test", {
    t: "CreateApiToken",
    name: "Accounting sync",
    mode: "test",
    permissions: { ...everySection("none"), transactions: "read" },
    allowedAddresses: [],
  });
  const hook = await runCommand(page, "test", { t: "CreateWebhookEndpoint", url: "http://127.0.0.1:9/hooks", description: "Books", eventTypes: ["payment.created"] });
  const webhookId = hook.t === "WebhookSecret" ? hook.endpointId : "";
  const payPageId = await createRecord(page, "test", {
    t: "CreatePayPage",
    input: { title: "Yoga class", description: "", amountMode: "fixed", amountCents: 15_000, kind: "once", methods: ["card"], reference: "YOGA", colour: "#1e3a8a" },
  });
  // A card payment on the pay page makes an order and a transaction.
  await payByCard(payer, payPageId, { name: "Lerato Dlamini", email: "lerato@example.co.za", cardNumber: "4242424242424242" });
  // A spreadsheet import, as the merchant makes one.
  await page.goto("/payments/one-time");
  const dialog = new ImportDialog(page);
  await dialog.open();
  await dialog.chooseTemplate("eft_debit_order");
  await dialog.upload("axe.csv", csvOf(EFT_ONCE_HEADER, [eftOnceRow("AXE-IMP", "Ayanda", "Khumalo")]));
  await dialog.preview().waitFor();
  await dialog.confirm();
  await page.waitForURL((url) => url.pathname.startsWith("/payments/one-time/imports/"));
  return { customerId, onceId, recurringId, webhookId, importPath: new URL(page.url()).pathname };
}

function signedInScreens(seeded: Seeded, links: { mandate: string; transaction: string; member: string; historyEntry: string }): Screen[] {
  return [
    { name: "home", path: "/home", ready: "home-page" },
    { name: "insights", path: "/insights", ready: "insights-page" },
    { name: "payments-once", path: "/payments/one-time", ready: "payments-page-once" },
    { name: "payment-once", path: `/payments/one-time/${seeded.onceId}`, ready: "payment-detail" },
    { name: "payments-recurring", path: "/payments/recurring", ready: "payments-page-recurring" },
    { name: "payment-recurring", path: `/payments/recurring/${seeded.recurringId}`, ready: "payment-detail" },
    { name: "import", path: seeded.importPath, ready: "import-page" },
    { name: "e-mandates", path: "/payments/e-mandates", ready: "e-mandates-page" },
    { name: "transactions", path: "/payments/transactions", ready: "transactions-page" },
    { name: "transaction", path: links.transaction, ready: "transaction-detail" },
    { name: "pay-pages", path: "/payments/pages", ready: "pay-pages-page" },
    { name: "customers", path: "/customers", ready: "customers-page" },
    { name: "customer", path: `/customers/${seeded.customerId}`, ready: "customer-detail" },
    { name: "mandates", path: "/mandates", ready: "mandates-page" },
    { name: "mandate", path: links.mandate, ready: "mandate-detail" },
    { name: "cards", path: "/cards", ready: "cards-page" },
    { name: "orders", path: "/commerce/orders", ready: "orders-page" },
    { name: "profile", path: "/account/profile", ready: "profile-page" },
    { name: "business-info", path: "/account/business-info", ready: "business-info-page" },
    { name: "payouts", path: "/account/payouts", ready: "payouts-page" },
    { name: "teams", path: "/account/teams", ready: "teams-page" },
    { name: "member", path: links.member, ready: "member-page" },
    { name: "history", path: "/account/history", ready: "history-page" },
    { name: "history-entry", path: links.historyEntry, ready: "history-entry" },
    { name: "integrations", path: "/developers/integrations", ready: "integrations-page" },
    { name: "tokens", path: "/developers/tokens", ready: "api-tokens-page" },
    { name: "webhooks", path: "/developers/webhooks", ready: "webhooks-page" },
    { name: "webhook", path: `/developers/webhooks/${seeded.webhookId}`, ready: "webhook-endpoint-page" },
    { name: "payment-methods", path: "/settings/payment-methods", ready: "payment-methods-page" },
    { name: "statement", path: "/download/summary", ready: "summary-page" },
    // An address the app does not know: the page that says so, with the way back.
    { name: "not-found", path: "/payments/no-such-screen", ready: "not-found" },
  ];
}

// The signed-in frame, the same on every screen: checked whole on the first screen of each
// theme, and left out on the rest to keep the run short.
const SHELL = [".sidebar", "header.header"];

async function check(page: Page, screens: Screen[], theme: string, findings: string[], move: (screen: Screen) => Promise<void>): Promise<void> {
  for (const [index, screen] of screens.entries()) {
    await move(screen);
    const skip = index > 0 && (await page.locator(SHELL[0]).count()) > 0 ? SHELL : [];
    findings.push(...(await seriousViolations(page, `${screen.name} (${theme})`, skip)));
  }
}

/** Checks the page as it is in light and then in dark (the system's choice), and leaves it light. */
async function checkBothThemes(page: Page, where: string, findings: string[]): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect.poll(() => new Shell(page).htmlHasDark()).toBe(theme === "dark");
    findings.push(...(await seriousViolations(page, `${where} (${theme})`)));
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** Opens a dialog of the two-factor card, checks it in both themes, and closes it with Escape. */
async function checkProfileDialog(page: Page, opener: string, dialog: string, findings: string[]): Promise<void> {
  await page.getByTestId(opener).click();
  await page.getByTestId(dialog).waitFor();
  await checkBothThemes(page, dialog, findings);
  await page.keyboard.press("Escape");
  await page.getByTestId(dialog).waitFor({ state: "detached" });
}

describe("accessibility", () => {
  // One browser, one merchant, every screen in light and then in dark: axe-core's WCAG 2.1 A and
  // AA rules find nothing serious or critical anywhere.
  // About 45 s on a quiet two-core machine; the timeout leaves room for a loaded one.
  it("every main screen and the auth screens pass axe-core in light and dark", { timeout: 180_000 }, async () => {
    const session = await openBrowser();
    try {
      const page = await session.newPage();
      const findings: string[] = [];
      await page.goto("/auth/login");
      await check(page, GUEST_SCREENS, "light", findings, (screen) => visit(page, screen));
      await signUpFresh(page, "axe");
      await new TestMode(page).switchOn();
      const payer = await session.newPage();
      const seeded = await seedBusiness(page, payer);
      await payer.close();
      const links = {
        mandate: await firstLink(page, { name: "mandates", path: "/mandates", ready: "mandates-page" }, "/mandates/man_"),
        transaction: await firstLink(page, { name: "transactions", path: "/payments/transactions", ready: "transactions-page" }, "/payments/transactions/txn_"),
        member: await firstLink(page, { name: "teams", path: "/account/teams", ready: "teams-page" }, "/account/teams/"),
        historyEntry: await firstLink(page, { name: "history", path: "/account/history", ready: "history-page" }, "/account/history/"),
      };
      const screens = signedInScreens(seeded, links);

      await check(page, screens, "light", findings, (screen) => visit(page, screen));
      // The colour mode follows the system's until chosen: one switch turns the open app dark.
      await page.emulateMedia({ colorScheme: "dark" });
      await expect.poll(() => new Shell(page).htmlHasDark()).toBe(true);
      await check(page, screens, "dark", findings, (screen) => visit(page, screen));

      await visit(page, screens[0]);
      await new Shell(page).signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");
      await check(page, GUEST_SCREENS, "dark", findings, (screen) => visit(page, screen));

      expect(findings, `axe-core found serious or critical violations:\n${findings.join("\n")}`).toEqual([]);
    } finally {
      await session.close();
    }
  });

  // Two-factor sign-in from turning it on to signing in with it: the enrolment, the backup codes,
  // the card's dialogs, the code step of sign-in and the backup code page, each with its error.
  // A code is taken once per 30 s step, so turning it on may wait for a fresh one.
  it("the two-factor screens pass axe-core in light and dark", { timeout: 120_000 }, async () => {
    const session = await openBrowser();
    try {
      const page = await session.newPage();
      const findings: string[] = [];
      const account = await signUpFresh(page, "axe-2fa");
      const profile = new ProfilePage(page);
      await profile.open();
      const secret = await profile.beginTwoFactor();
      await checkBothThemes(page, "two-factor enrolment", findings);
      await profile.confirmTwoFactor("000000");
      await profile.enrolmentError().waitFor();
      await checkBothThemes(page, "two-factor enrolment, wrong code", findings);
      await profile.confirmTwoFactor(await freshCode(secret));
      await profile.backupCodes();
      await checkBothThemes(page, "two-factor backup codes", findings);
      await profile.savedBackupCodes();
      await expect.poll(() => profile.twoFactorStatus().textContent()).toBe("On");
      await checkProfileDialog(page, "turn-off-two-factor", "turn-off-dialog", findings);
      await checkProfileDialog(page, "new-backup-codes", "regenerate-dialog", findings);

      await new Shell(page).signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");
      const login = new LoginPage(page);
      await login.signIn(account.email, account.password);
      await login.codeForm().waitFor();
      await checkBothThemes(page, "sign-in code", findings);
      await login.enterCode("000000");
      await login.error().waitFor();
      await checkBothThemes(page, "sign-in code, wrong code", findings);
      await login.useBackupCode();
      const backup = new BackupCodeSignInPage(page);
      await backup.waitForIt();
      await checkBothThemes(page, "backup code", findings);
      await backup.signIn("not-a-code");
      await backup.error().waitFor();
      await checkBothThemes(page, "backup code, wrong code", findings);
      await transitionsDone(page);
      await shootWindow(page, "axe-backup-code-error-en-light");

      expect(findings, `axe-core found serious or critical violations:\n${findings.join("\n")}`).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
