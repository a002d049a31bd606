import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, type Session } from "./browser";
import { eftDebitOrder } from "./collectionsSeed";
import { createRecord, runCommand } from "./dashboardSeed";
import { signUpFresh } from "./flows";
import { MandateDetailPage, MandatesListPage, NewPaymentForm, PaymentDetailPage, PaymentsListPage } from "./pages/CollectionPages";
import { CustomerDetailPage } from "./pages/CustomerPages";
import { TestMode } from "./pages/DashboardPages";
import { Shell } from "./pages/Shell";
import { customerInput } from "./seed";

/** A business date `days` after an ISO date, as an ISO date. */
function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Polls until the expectation holds; a loaded machine may take a while to play a span out. */
function eventually<T>(read: () => T | Promise<T>, timeout = 10_000) {
  return expect.poll(read, { timeout });
}

/**
 * A new tab on test data at `path`: test mode is per tab (remembered across reloads), so it
 * is switched on at home first and the address opened after.
 */
async function testTab(session: Session, path: string): Promise<Page> {
  const page = await session.newPage();
  await page.goto("/home");
  await new Shell(page).waitUntilLive();
  await new TestMode(page).switchOn();
  await page.goto(path);
  await new Shell(page).waitUntilLive();
  await new TestMode(page).strip().waitFor();
  return page;
}

describe("collections actions: mandates and payments, in test mode", () => {
  let session: Session;
  // The test clock's business date when the suite starts, read from the test strip.
  let today = "";
  let seeder: Page;

  /** A customer and a running EFT debit order on the simulated bank; answers with the payment's id. */
  async function seedPayment(name: string, kind: "once" | "recurring", accountNumber: string, date: string, reference: string): Promise<string> {
    const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@example.co.za`;
    const customerId = await createRecord(seeder, "test", { t: "CreateCustomer", input: customerInput(name, email) });
    return createRecord(seeder, "test", {
      t: "CreatePayment",
      input: eftDebitOrder({ customerId, accountNumber, amountCents: 35_000, date, kind, reference }),
    });
  }

  beforeAll(async () => {
    session = await openBrowser();
    seeder = await session.newPage();
    await signUpFresh(seeder, "actions");
    const testMode = new TestMode(seeder);
    await testMode.switchOn();
    today = await testMode.today();
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  afterAll(async () => {
    await seeder?.close();
    await session?.close();
  });

  it("suspends, resumes and cancels a mandate from its page, seen live on its payment in another tab", async () => {
    const paymentId = await seedPayment("Sipho Dlamini", "recurring", "4000000001", addDays(today, 7), "SD-2026");

    // Tab B shows the payment, with its mandate's card; it is never reloaded.
    const tabB = await testTab(session, `/payments/recurring/${paymentId}`);
    const payment = new PaymentDetailPage(tabB);
    await payment.waitForIt();
    await eventually(() => payment.status().getAttribute("data-status")).toBe("running");
    const mandatePath = await payment.mandatePath();
    expect(mandatePath).toMatch(/^\/mandates\/man_/);
    await eventually(() => payment.mandateStatus().getAttribute("data-status")).toBe("active");

    const tabA = await testTab(session, mandatePath);
    const mandate = new MandateDetailPage(tabA);
    await mandate.waitForIt();
    await eventually(() => mandate.status().getAttribute("data-status")).toBe("active");
    expect(await mandate.action("resume").count()).toBe(0);

    await mandate.act("suspend");
    await eventually(() => mandate.status().getAttribute("data-status")).toBe("suspended");
    expect(await mandate.status().textContent()).toContain("Suspended");
    await mandate.action("resume").waitFor();
    expect(await mandate.action("suspend").count()).toBe(0);
    await eventually(() => payment.mandateStatus().getAttribute("data-status")).toBe("suspended");
    await shoot(tabA, "mandate-suspended-en-light");

    await mandate.act("resume");
    await eventually(() => mandate.status().getAttribute("data-status")).toBe("active");
    expect(await mandate.status().textContent()).toContain("Active");
    await mandate.action("suspend").waitFor();
    await eventually(() => payment.mandateStatus().getAttribute("data-status")).toBe("active");

    await mandate.act("cancel");
    await eventually(() => mandate.status().getAttribute("data-status")).toBe("cancelled");
    expect(await mandate.status().textContent()).toContain("Cancelled");
    // A cancelled mandate can only be archived.
    await mandate.action("archive").waitFor();
    expect(await mandate.action("suspend").count()).toBe(0);
    expect(await mandate.action("cancel").count()).toBe(0);

    // Nothing more is debited under it: its payment stops, live in tab B.
    await eventually(() => payment.mandateStatus().getAttribute("data-status")).toBe("cancelled");
    await eventually(() => payment.status().getAttribute("data-status")).toBe("stopped");
    expect(await payment.status().textContent()).toContain("Stopped");
    await payment.stopReason().waitFor();
    expect(await payment.action("pause").count()).toBe(0);
    expect(await payment.action("cancel").count()).toBe(0);
    await shoot(tabB, "payment-stopped-by-mandate-en-light");

    await tabA.close();
    await tabB.close();
  });

  it("cancels a payment from its page after confirmation", async () => {
    const paymentId = await seedPayment("Naledi Mokoena", "recurring", "4000000001", addDays(today, 7), "NM-2026");
    const page = await testTab(session, `/payments/recurring/${paymentId}`);
    const detail = new PaymentDetailPage(page);
    await detail.waitForIt();
    await eventually(() => detail.status().getAttribute("data-status")).toBe("running");

    // Keeping it (the dialog's other button) changes nothing.
    await detail.action("cancel").click();
    const dialog = page.getByTestId("confirm-dialog");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Go back" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await detail.status().getAttribute("data-status")).toBe("running");

    await detail.act("cancel");
    await eventually(() => detail.status().getAttribute("data-status")).toBe("cancelled");
    expect(await detail.status().textContent()).toContain("Cancelled");
    // A cancelled payment has no actions left.
    expect(await detail.action("cancel").count()).toBe(0);
    expect(await detail.action("pause").count()).toBe(0);
    await shoot(page, "payment-cancelled-en-light");

    // Back on the list (no reload) it is cancelled too.
    await page.locator(".back-link").click();
    const list = new PaymentsListPage(page, "recurring");
    await list.waitForIt();
    await eventually(() => list.row("Naledi Mokoena").getByTestId("payment-status").getAttribute("data-status")).toBe("cancelled");
    await page.close();
  });

  it("archives a cancelled mandate out of the current list and restores it from the archived one", async () => {
    const paymentId = await seedPayment("Johan van Wyk", "recurring", "4000000001", addDays(today, 7), "JVW-2026");
    const page = await testTab(session, `/payments/recurring/${paymentId}`);
    const payment = new PaymentDetailPage(page);
    await payment.waitForIt();
    const mandatePath = await payment.mandatePath();
    // The link keeps the tab's business and mode after its path.
    const mandateId = new URL(mandatePath, page.url()).pathname.split("/").pop() ?? "";
    await runCommand(page, "test", { t: "ActOnMandate", mandateId, action: "cancel" });

    const list = new MandatesListPage(page);
    await list.open();
    const row = list.rowById(mandateId);
    await eventually(() => row.getByTestId("mandate-status").getAttribute("data-status")).toBe("cancelled");
    await row.getByRole("link", { name: "Johan van Wyk" }).click();

    const mandate = new MandateDetailPage(page);
    await mandate.waitForIt();
    expect(await mandate.status().getAttribute("data-status")).toBe("cancelled");
    await mandate.act("archive");
    await eventually(() => mandate.status().textContent()).toContain("Archived");
    // An archived mandate is frozen until restored.
    await mandate.action("restore").waitFor();
    expect(await mandate.action("archive").count()).toBe(0);
    await shoot(page, "mandate-archived-en-light");

    // Out of the current list, in the archived one.
    await page.locator(".back-link").click();
    await list.waitForIt();
    await page.locator('[data-testid="show-current"][aria-checked="true"]').waitFor();
    await eventually(() => page.getByTestId("mandate-row").count()).toBeGreaterThan(0);
    await eventually(() => row.count()).toBe(0);
    await list.show("archived");
    await eventually(() => row.count()).toBe(1);
    expect(await row.getByTestId("mandate-status").textContent()).toContain("Archived");
    await shoot(page, "mandates-archived-list-en-light");

    await row.getByRole("link", { name: "Johan van Wyk" }).click();
    await mandate.waitForIt();
    await mandate.act("restore");
    await eventually(() => mandate.status().textContent()).not.toContain("Archived");
    expect(await mandate.status().getAttribute("data-status")).toBe("cancelled");
    await mandate.action("archive").waitFor();

    await page.locator(".back-link").click();
    await list.waitForIt();
    await eventually(() => row.count()).toBe(1);
    await list.show("archived");
    await eventually(() => row.count()).toBe(0);
    await page.close();
  });

  // Last: it moves the merchant's test clock on two weeks.
  it("retries a once-off debit that came back unpaid 02, and presents it again as attempt 2", async () => {
    const paymentId = await seedPayment("Pieter Botha", "once", "4000000002", today, "PB-ONCE-1");
    const page = await testTab(session, `/payments/one-time/${paymentId}`);
    const detail = new PaymentDetailPage(page);
    await detail.waitForIt();
    await eventually(() => detail.status().getAttribute("data-status")).toBe("running");
    const clock = new TestMode(page);
    expect(await clock.today()).toBe(today);

    // The debit is presented and the payer's bank returns it unpaid 02 (insufficient funds).
    await clock.advance("week");
    await clock.waitUntilPlayed();
    await eventually(() => clock.today()).not.toBe(today);
    await eventually(() => detail.status().getAttribute("data-status"), 30_000).toBe("paused");
    expect(await detail.status().textContent()).toContain("Paused");
    await eventually(() => detail.debits().count()).toBe(1);
    const first = detail.debits().first();
    await eventually(() => first.getByTestId("transaction-status").getAttribute("data-status")).toBe("unpaid");
    expect(await first.textContent()).toContain("code 02");
    expect(await first.locator("td").nth(2).textContent()).toBe("1");
    expect(await detail.stopReason().textContent()).toContain("02");
    await shoot(page, "payment-paused-unpaid-02-en-light");

    await detail.action("retry").waitFor();
    await detail.act("retry");
    await eventually(() => detail.status().getAttribute("data-status")).toBe("running");
    expect(await detail.action("retry").count()).toBe(0);

    // A week on, the debit has been presented again.
    await clock.advance("week");
    await clock.waitUntilPlayed();
    await eventually(() => detail.debits().count(), 30_000).toBe(2);
    const attempts = await detail.debits().evaluateAll((rows) => rows.map((row) => row.querySelectorAll("td")[2]?.textContent));
    expect(attempts.sort()).toEqual(["1", "2"]);
    await shoot(page, "payment-retried-en-light");
    await page.close();
  }, 120_000);

  // After the clock test: it moves the clock a week on from wherever that left it.
  it("lists a customer's mandates, payments and debits on their page, and a new payment arrives live", async () => {
    const customerId = await createRecord(seeder, "test", { t: "CreateCustomer", input: customerInput("Ayanda Khumalo", "ayanda@example.co.za") });
    const clock = new TestMode(seeder);
    const now = await clock.today();
    // Two days out, not today: on a business day the scheduler presents a debit
    // dated today at once, and her page would not start without debits.
    await createRecord(seeder, "test", {
      t: "CreatePayment",
      input: eftDebitOrder({ customerId, accountNumber: "4000000001", amountCents: 42_000, date: addDays(now, 2), kind: "once", reference: "AK-ONCE" }),
    });
    // Someone else's payment stays off Ayanda's page.
    await seedPayment("Naledi Mokoena", "once", "4000000001", now, "NM-ONCE");

    const page = await testTab(session, `/customers/${customerId}`);
    const detail = new CustomerDetailPage(page);
    await detail.waitForIt();
    const mandates = detail.related("customer-mandates");
    const once = detail.related("customer-payments-once");
    const recurring = detail.related("customer-payments-recurring");
    const debits = detail.related("customer-transactions");
    await eventually(() => mandates.getByTestId("mandate-row").count()).toBe(1);
    await eventually(() => once.getByTestId("payment-row").count()).toBe(1);
    expect(await once.textContent()).toContain("420,00");
    expect(await once.textContent()).not.toContain("Naledi");
    await recurring.getByText("None for this customer yet.").waitFor();
    await debits.getByText("No transactions for this customer yet.").waitFor();

    // A recurring payment made elsewhere appears without a reload.
    await createRecord(seeder, "test", {
      t: "CreatePayment",
      input: eftDebitOrder({ customerId, accountNumber: "4000000003", amountCents: 15_000, date: now, kind: "recurring", reference: "AK-GYM" }),
    });
    await eventually(() => recurring.getByTestId("payment-row").count()).toBe(1);
    await eventually(() => mandates.getByTestId("mandate-row").count()).toBe(2);

    // A week of the test clock debits her: the debits arrive on her page as they are presented.
    await new TestMode(page).advance("week");
    await new TestMode(page).waitUntilPlayed();
    await eventually(() => debits.getByTestId("transaction-row").count(), 30_000).toBeGreaterThanOrEqual(1);
    const names = await debits.getByTestId("transaction-row").evaluateAll((rows) => rows.map((row) => row.querySelectorAll("td")[1]?.textContent ?? ""));
    expect(names.every((name) => name.startsWith("Ayanda Khumalo"))).toBe(true);
    await shoot(page, "customer-related-lists-en-light");

    // In Afrikaans, dark, on a phone: the lists scroll inside their cards, the page does not.
    const shell = new Shell(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await shell.chooseLanguage("afr");
    await shell.chooseTheme("dark");
    await debits.getByRole("heading", { name: "Transaksies" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shoot(page, "customer-related-lists-afr-dark-phone");
    await shell.chooseLanguage("en");
    await shell.chooseTheme("light");
    await page.close();

    // The same link without its mode, in a new tab (on live data): nothing there, and it says where to look.
    const live = await session.newPage();
    await live.goto(`/customers/${customerId}`);
    await new Shell(live).waitUntilLive();
    const missing = live.getByTestId("customer-missing");
    await missing.getByTestId("record-elsewhere").waitFor();
    expect(await missing.getByTestId("record-elsewhere-open").textContent()).toBe("Open in test mode");
    await live.close();
  }, 120_000);
  // From a customer's page: the form opens with them chosen and their mandate picked; a new
  // mandate starts on their saved bank account.
  it("starts a new payment from a customer's page with their mandate and saved account", async () => {
    // Earlier tests moved the test clock on: its date now.
    const now = await new TestMode(seeder).today();
    const customerId = await createRecord(seeder, "test", { t: "CreateCustomer", input: customerInput("Nomsa Zulu", "nomsa.zulu@example.co.za") });
    await createRecord(seeder, "test", {
      t: "CreatePayment",
      input: eftDebitOrder({ customerId, accountNumber: "4000000003", amountCents: 20_000, date: addDays(now, 2), kind: "once", reference: "NZFIRST" }),
    });
    const page = await testTab(session, `/customers/${customerId}`);
    await new CustomerDetailPage(page).waitForIt();
    await page.getByTestId("customer-new-payment-once").click();
    const form = new NewPaymentForm(page);
    await form.dialog().waitFor();
    expect(await form.field("picked-customer").textContent()).toContain("Nomsa Zulu");
    await eventually(() => form.field("mandate-choice-existing").getAttribute("aria-checked")).toBe("true");
    await form.field("payment-amount-input").fill("180");
    await form.field("payment-dateToProcess").fill(addDays(now, 4));
    await form.field("payment-transactionReference").fill("NZ-SECOND");
    await shoot(page, "new-payment-from-customer-en-light");
    await form.submit();
    const payment = new PaymentDetailPage(page);
    await payment.waitForIt();
    expect(await payment.mandateSummary().textContent()).toContain("NZFIRST");

    // A new mandate for her: the account she has is chosen, not a blank one to type again.
    await page.goto(`/customers/${customerId}`);
    await page.getByTestId("customer-new-payment-recurring").click();
    await form.dialog().waitFor();
    await eventually(() => form.field("mandate-choice-existing").getAttribute("aria-checked")).toBe("true");
    await form.field("mandate-choice-new").click();
    await eventually(() => form.field("mandate-bankAccount").inputValue()).not.toBe("");
    expect(await form.field("new-bank-account").count()).toBe(0);
    await page.keyboard.press("Escape");
    await form.dialog().waitFor({ state: "detached" });

    // The once-off payment made from her page is listed there, without a reload.
    const once = new CustomerDetailPage(page).related("customer-payments-once");
    await eventually(() => once.getByTestId("payment-row").count()).toBe(2);
    await page.close();
  }, 120_000);
});
