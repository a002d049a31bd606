import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { everySection } from "../src/live/permissions";
import type { Section } from "../src/protocol/wire";
import { openBrowser, shoot, shootWindow, uniqueEmail, type Session } from "./browser";
import { clippedText } from "./pages/Clipping";
import { eftDebitOrder } from "./collectionsSeed";
import { createRecord, runCommand } from "./dashboardSeed";
import { signUpFresh } from "./flows";
import { csvOf, EFT_ONCE_HEADER, eftOnceRow, inDays } from "./importsCsv";
import { waitForMailLink } from "./mail";
import { payByCard } from "./pages/CommercePages";
import { TestMode } from "./pages/DashboardPages";
import { ImportDialog } from "./pages/ImportPages";
import { PRESET_GRANTS, roleAllows, RoleWalk, type PresetRole, type WalkScreen } from "./pages/RoleWalk";
import { Shell } from "./pages/Shell";
import { customerInput } from "./seed";

type Screen = WalkScreen & { reads?: Section };

type Seeded = { customerId: string; onceId: string; mandateId: string; transactionId: string; importPath: string; orderId: string };

// One of each record the screens show, made by the owner in test mode.
async function seedBusiness(owner: Session, page: Page): Promise<Seeded> {
  const customerId = await createRecord(page, "test", { t: "CreateCustomer", input: customerInput("Sipho Dlamini", "sipho@example.co.za") });
  // Each under a mandate on an account of its own: a customer's account is added once.
  const debit = (kind: "once" | "recurring", reference: string, days: number, accountNumber: string) =>
    eftDebitOrder({ customerId, accountNumber, amountCents: 25_000, date: inDays(days), kind, reference });
  const onceId = await createRecord(page, "test", { t: "CreatePayment", input: debit("once", "WALK-ONCE", 3, "4000000001") });
  await createRecord(page, "test", { t: "CreatePayment", input: debit("recurring", "WALK-MONTHLY", 7, "4000000002") });
  // Its reply carries the secret, not a record's id.
  await runCommand(page, "test", {
    t: "CreateApiToken",
    name: "Accounting sync",
    mode: "test",
    permissions: { ...everySection("none"), transactions: "read" },
    allowedAddresses: [],
  });
  const payPageId = await createRecord(page, "test", {
    t: "CreatePayPage",
    input: { title: "Yoga class", description: "", amountMode: "fixed", amountCents: 15_000, kind: "once", methods: ["card"], reference: "YOGA", colour: "#1e3a8a" },
  });
  const payer = await owner.newPage();
  await payByCard(payer, payPageId, { name: "Lerato Dlamini", email: "lerato@example.co.za", cardNumber: "4242424242424242" });
  await payer.close();

  // A spreadsheet import, as the merchant makes one.
  await page.goto("/payments/one-time");
  const dialog = new ImportDialog(page);
  await dialog.open();
  await dialog.chooseTemplate("eft_debit_order");
  await dialog.upload("walk.csv", csvOf(EFT_ONCE_HEADER, [eftOnceRow("WALK-IMP", "Ayanda", "Khumalo")]));
  await dialog.preview().waitFor();
  await dialog.confirm();
  await page.waitForURL((url) => url.pathname.startsWith("/payments/one-time/imports/"));
  const importPath = new URL(page.url()).pathname;

  const firstLink = async (path: string, prefix: string) => {
    await page.goto(path);
    const link = page.locator(`main a[href^="${prefix}"]`).first();
    await link.waitFor();
    return (await link.getAttribute("href")) ?? "";
  };
  const mandateId = (await firstLink("/mandates", "/mandates/man_")).split("/").pop() ?? "";
  const transactionId = (await firstLink("/payments/transactions", "/payments/transactions/txn_")).split("/").pop() ?? "";
  await page.goto("/commerce/orders");
  await page.getByTestId("order-open").first().click();
  await page.getByTestId("order-detail").waitFor();
  const orderId = (await page.getByTestId("order-row").first().getAttribute("data-order-id")) ?? "";
  return { customerId, onceId, mandateId, transactionId, importPath, orderId };
}

function walkScreens(seeded: Seeded): Screen[] {
  return [
    // The test strip's clock is on every screen and refused to a role without payments write; it is
    // not asked for here, as a role that cannot read insights is not told the business date.
    { name: "home", path: "/", ready: "home-page", offers: [] },
    { name: "customers", path: "/customers", ready: "customers-page", reads: "customers", offers: ["customers:write"] },
    { name: "customer", path: `/customers/${seeded.customerId}`, ready: "customer-detail", reads: "customers", offers: ["customers:write", "payouts:write"] },
    { name: "payments-once", path: "/payments/one-time", ready: "payments-page-once", reads: "payments", offers: ["payments:write", "imports:write"] },
    { name: "payments-recurring", path: "/payments/recurring", ready: "payments-page-recurring", reads: "payments", offers: ["payments:write", "imports:write"] },
    { name: "payment", path: `/payments/one-time/${seeded.onceId}`, ready: "payment-detail", reads: "payments", offers: ["payments:write"] },
    { name: "mandates", path: "/mandates", ready: "mandates-page", reads: "mandates", offers: [] },
    { name: "e-mandates", path: "/payments/e-mandates", ready: "e-mandates-page", reads: "mandates", offers: ["mandates:write"] },
    { name: "mandate", path: `/mandates/${seeded.mandateId}`, ready: "mandate-detail", reads: "mandates", offers: ["mandates:write"] },
    { name: "transactions", path: "/payments/transactions", ready: "transactions-page", reads: "transactions", offers: [] },
    { name: "transaction", path: `/payments/transactions/${seeded.transactionId}`, ready: "transaction-detail", reads: "transactions", offers: [] },
    { name: "import", path: seeded.importPath, ready: "import-page", reads: "imports", offers: [] },
    { name: "pay-pages", path: "/payments/pages", ready: "pay-pages-page", reads: "pay_pages", offers: ["pay_pages:write"] },
    { name: "orders", path: `/commerce/orders?order=${seeded.orderId}`, ready: "orders-page", reads: "orders", offers: ["refunds:write"] },
    { name: "cards", path: "/cards", ready: "cards-page", reads: "customers", offers: [] },
    { name: "payouts", path: "/account/payouts", ready: "payouts-page", reads: "payouts", offers: ["payouts:write", "settings:write"] },
    { name: "insights", path: "/insights", ready: "insights-page", reads: "insights", offers: [] },
    { name: "statement", path: "/download/summary", ready: "summary-page", reads: "exports", offers: [] },
    { name: "integrations", path: "/developers/integrations", ready: "integrations-page", offers: [] },
    { name: "tokens", path: "/developers/tokens", ready: "api-tokens-page", reads: "developers", offers: ["developers:write"] },
    { name: "webhooks", path: "/developers/webhooks", ready: "webhooks-page", reads: "developers", offers: ["developers:write"] },
    { name: "team", path: "/account/teams", ready: "teams-page", reads: "team", offers: ["team:write"] },
    { name: "history", path: "/account/history", ready: "history-page", reads: "history", offers: [] },
    { name: "business", path: "/account/business-info", ready: "business-info-page", reads: "settings", offers: ["owner"] },
    { name: "payment-methods", path: "/settings/payment-methods", ready: "payment-methods-page", reads: "settings", offers: [] },
  ];
}

/**
 * Every screen as `role`: no control is usable that the role may not use, each one refused says
 * why, and what the role may do is offered and usable.
 */
async function walkAs(page: Page, role: PresetRole, screens: Screen[], shots?: string): Promise<void> {
  const clipped: string[] = [];
  const walk = new RoleWalk(page);
  for (const [n, screen] of screens.entries()) {
    await walk.open(screen, n === 0 ? "reload" : "link");
    const reads = !screen.reads || PRESET_GRANTS[role][screen.reads] !== "none";
    for (const need of screen.offers) if (reads && roleAllows(role, need)) await walk.waitForUsable(need);
    for (const control of await walk.controls()) {
      const where = `${role} on ${screen.name}: ${control.testId} needs ${control.need}`;
      if (control.enabled) expect(roleAllows(role, control.need), `${where}, yet is usable`).toBe(true);
      if (control.refusedByRole) {
        expect(roleAllows(role, control.need), `${where} and is refused`).toBe(false);
        expect(control.reason, `${where}: refused without a reason`).not.toBe("");
      }
    }
    if (shots) {
      await shoot(page, `role-walk-${role}-${screen.name}-${shots}`);
      // The captured walk also looks for text the screen cuts off (Afrikaans runs longest).
      for (const cut of await clippedText(page)) clipped.push(`${screen.name}: ${cut}`);
    }
  }
  expect(clipped, `text cut off (${shots ?? ""})`).toEqual([]);
}

/** The owner gives the member another role from the member's page. */
async function giveRole(ownerPage: Page, email: string, role: PresetRole, label: string): Promise<void> {
  await ownerPage.goto("/account/teams");
  await ownerPage.getByTestId(`member-${email}`).getByRole("link").click();
  await ownerPage.getByTestId("member-page").waitFor();
  await ownerPage.getByTestId("member-new-role").selectOption(role);
  await ownerPage.getByTestId("save-role").click();
  await expect.poll(() => ownerPage.getByTestId("member-role").textContent()).toBe(label);
}

const LABELS: Record<PresetRole, string> = {
  owner: "Owner",
  admin: "Admin",
  operations: "Operations",
  finance: "Finance",
  developer: "Developer",
  support: "Support",
  viewer: "Viewer",
};

describe("role-aware screens", () => {
  // One business, its owner and one member whose role the owner changes: every main screen, as
  // each preset role, offers only what the role may do, and says why for the rest.
  it("walks every screen as each preset role, and a demoted member keeps the draft of an open form", { timeout: 1_200_000 }, async () => {
    const owner = await openBrowser();
    const member = await openBrowser();
    try {
      const ownerPage = await owner.newPage();
      await signUpFresh(ownerPage, "walk-owner");
      await new TestMode(ownerPage).switchOn();
      const seeded = await seedBusiness(owner, ownerPage);
      const screens = walkScreens(seeded);

      // The member joins from an invite, as Operations.
      await ownerPage.goto("/account/teams");
      await ownerPage.getByTestId("invite-member").click();
      const email = uniqueEmail("walk-member");
      await ownerPage.getByTestId("invite-email").fill(email);
      await ownerPage.getByTestId("invite-role").selectOption("operations");
      await ownerPage.getByTestId("send-invite").click();
      await ownerPage.getByTestId(`invite-${email}`).waitFor();
      const mail = await waitForMailLink(email);
      const page = await member.newPage();
      await page.goto(mail.link);
      await page.getByTestId("invite-name").fill("Thandi Dube");
      await page.getByTestId("invite-password").fill("correct-horse-battery-staple");
      await page.getByTestId("invite-sign-up").click();
      await page.waitForURL((url) => url.pathname === "/");
      await new Shell(page).waitUntilLive();
      // The seeded records are test data: the member looks at them in test mode.
      await page.getByTestId("mode-switch").click();
      await new TestMode(page).strip().waitFor();

      await walkAs(ownerPage, "owner", screens);
      for (const role of ["admin", "finance", "developer", "support", "operations"] as const) {
        await giveRole(ownerPage, email, role, LABELS[role]);
        await walkAs(page, role, screens);
      }

      // Operations, writing a new pay page, is made a Viewer: the tab says so at once, and the
      // form locks with what was typed kept to copy.
      await page.goto("/payments/pages");
      await page.getByTestId("new-pay-page").click();
      const dialog = page.getByTestId("pay-page-dialog");
      await dialog.getByTestId("page-title-input").fill("Winter yoga pass");
      await dialog.getByTestId("page-reference-input").fill("WINTER");
      await giveRole(ownerPage, email, "viewer", "Viewer");
      await expect.poll(() => page.getByTestId("access-notice-text").textContent()).toBe("Your role is now Viewer.");
      await dialog.getByTestId("form-locked").waitFor();
      const draft = await dialog.getByTestId("locked-draft").inputValue();
      expect(draft).toContain("Winter yoga pass");
      expect(draft).toContain("WINTER");
      expect(await dialog.getByTestId("page-title-input").isDisabled()).toBe(true);
      expect(await dialog.getByTestId("page-submit").getAttribute("aria-disabled")).toBe("true");
      expect(await dialog.getByTestId("page-title-input").inputValue()).toBe("Winter yoga pass");
      await shootWindow(page, "role-walk-demoted-pay-page-en-light");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      // Behind the dialog, the page now refuses the new page with the reason.
      const newPage = page.getByTestId("new-pay-page");
      expect(await newPage.getAttribute("aria-disabled")).toBe("true");
      expect(await newPage.getAttribute("title")).toBe("Your role (Viewer) can't change payment pages.");
      await shoot(page, "role-walk-viewer-pay-pages-en-light");

      await walkAs(page, "viewer", screens);
      await page.goto(`/payments/one-time/${seeded.onceId}`);
      await page.getByTestId("payment-pause").waitFor();
      await shoot(page, "role-walk-viewer-payment-en-light");

      // Once more in Afrikaans and dark, each screen captured.
      await member.context.addCookies([{ name: "locale", value: "afr", url: member.baseURL }]);
      await page.emulateMedia({ colorScheme: "dark" });
      await walkAs(page, "viewer", screens, "afr-dark");
      await page.setViewportSize({ width: 390, height: 844 });
      await walkAs(page, "viewer", screens, "afr-dark-phone");
    } finally {
      await member.close();
      await owner.close();
    }
  });
});
