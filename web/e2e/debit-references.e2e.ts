import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, type Session } from "./browser";
import { signUpFresh } from "./flows";
import { NewPaymentForm, PaymentDetailPage, PaymentsListPage } from "./pages/CollectionPages";
import { CustomerDetailPage, CustomersListPage } from "./pages/CustomerPages";
import { TestMode, TransactionsList } from "./pages/DashboardPages";

describe("debit references: what a debit goes to the bank by, as the merchant reads it", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowser();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("lists the debit of a payment with no contract or transaction reference by its customer's reference", async () => {
    const page = await session.newPage();
    await signUpFresh(page, "debit-reference");
    // Test mode stays on for the tab across the pages it opens.
    const clock = new TestMode(page);
    await clock.switchOn();
    const today = await clock.today();
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // A customer the merchant knows by a reference of their own.
    const customers = new CustomersListPage(page);
    await customers.open();
    await customers.create({ name: "Thabo Mokoena", email: "thabo@example.co.za", reference: "MEMBER-77" });
    await new CustomerDetailPage(page).waitForIt();

    // A one-time EFT payment for them, with no contract or transaction reference.
    const payments = new PaymentsListPage(page, "one-time");
    await payments.open();
    await clock.strip().waitFor();
    const form = new NewPaymentForm(page);
    await form.openFor("Thabo", "Thabo Mokoena");
    await form.field("mandate-method").selectOption("eft_debit_order");
    await form.field("bank-account-bank").selectOption("capitec");
    await form.field("bank-account-accountNumber").fill("4000000001");
    await form.field("payment-amount-input").fill("250");
    await form.field("payment-dateToProcess").fill(today);
    expect(await form.field("mandate-contractReference").inputValue()).toBe("");
    expect(await form.field("payment-transactionReference").inputValue()).toBe("");
    await form.submit();
    await new PaymentDetailPage(page).waitForIt();
    expect(page.url()).toMatch(/\/payments\/one-time\/pay_/);

    // A week of the test clock: the debit goes to the bank.
    await clock.advance("week");
    await clock.waitUntilPlayed();
    await expect.poll(() => clock.today()).not.toBe(today);

    // The transactions list shows it by the customer's reference.
    const transactions = new TransactionsList(page);
    await transactions.openFromNav();
    const debit = transactions.rows().filter({ hasText: "Thabo Mokoena" });
    await expect.poll(() => debit.count(), { timeout: 30_000 }).toBe(1);
    expect(await transactions.referenceOf(debit)).toBe("MEMBER-77");
    await shoot(page, "transactions-customer-reference-en-light");
    await page.close();
  }, 120_000);
});
