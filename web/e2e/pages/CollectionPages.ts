import type { Page } from "playwright-core";

export type NewRecurringDebiCheck = {
  customerSearch: string;
  customerName: string;
  bank: string;
  accountNumber: string;
  contractReference: string;
  maximumCollection: string;
  amount: string;
  startDate: string;
  dayToProcess: string;
};

/** /payments/one-time and /payments/recurring: list, filters and the new-payment form. */
export class PaymentsListPage {
  constructor(
    private readonly page: Page,
    private readonly kind: "one-time" | "recurring",
  ) {}

  async open(query = ""): Promise<void> {
    await this.page.goto(`/payments/${this.kind}${query}`);
    await this.waitForIt();
  }

  async waitForIt(): Promise<void> {
    await this.page.getByTestId(`payments-page-${this.kind === "one-time" ? "once" : "recurring"}`).waitFor();
  }

  row(text: string) {
    return this.page.getByTestId("payment-row").filter({ hasText: text });
  }

  async createRecurringDebiCheck(fields: NewRecurringDebiCheck): Promise<void> {
    await this.page.getByTestId("new-payment").first().click();
    const dialog = this.page.getByTestId("new-payment-dialog");
    await dialog.waitFor();
    await dialog.getByTestId("customer-picker-search").fill(fields.customerSearch);
    await dialog.getByTestId("customer-option").filter({ hasText: fields.customerName }).click();
    await dialog.getByTestId("mandate-choice-new").click();
    await dialog.getByTestId("mandate-method").selectOption("debicheck");
    await dialog.getByTestId("mandate-bankAccount").selectOption("");
    await dialog.getByTestId("bank-account-bank").selectOption(fields.bank);
    await dialog.getByTestId("bank-account-accountNumber").fill(fields.accountNumber);
    await dialog.getByTestId("mandate-contractReference").fill(fields.contractReference);
    await dialog.getByTestId("mandate-maximumCollection").fill(fields.maximumCollection);
    await dialog.getByTestId("payment-amount-input").fill(fields.amount);
    await dialog.getByTestId("payment-startDate").fill(fields.startDate);
    await dialog.getByTestId("payment-interval").selectOption("monthly");
    await dialog.getByTestId("payment-dayToProcess").fill(fields.dayToProcess);
    await dialog.getByTestId("payment-submit").click();
  }

  filters() {
    return new FilterBarModel(this.page.getByTestId("payment-filters"));
  }
}

export class FilterBarModel {
  constructor(private readonly root: ReturnType<Page["getByTestId"]>) {}

  search() {
    return this.root.getByTestId("filter-search");
  }
  status() {
    return this.root.getByTestId("filter-status");
  }
  method() {
    return this.root.getByTestId("filter-method");
  }
  from() {
    return this.root.getByTestId("filter-from");
  }
  min() {
    return this.root.getByTestId("filter-min");
  }
  sort() {
    return this.root.getByTestId("filter-sort");
  }
}

/** /payments/{kind}/{id}: the payment, its mandate, its debits and its actions. */
export class PaymentDetailPage {
  constructor(private readonly page: Page) {}

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("payment-detail").waitFor();
    await this.page.getByTestId("payment-status").waitFor();
  }

  status() {
    return this.page.getByTestId("payment-detail").getByTestId("payment-status").first();
  }

  mandateSummary() {
    return this.page.getByTestId("mandate-summary");
  }

  /** Clicks an action and confirms it in the dialog. */
  async act(action: "pause" | "resume" | "cancel" | "start" | "retry"): Promise<void> {
    await this.page.getByTestId(`payment-${action}`).click();
    const dialog = this.page.getByTestId("confirm-dialog");
    await dialog.waitFor();
    await dialog.getByTestId("confirm-action").click();
    await dialog.waitFor({ state: "detached" });
  }

  action(action: "pause" | "resume" | "cancel" | "start" | "retry") {
    return this.page.getByTestId(`payment-${action}`);
  }

  /** Why the system stopped (or held) the payment, when the page says. */
  stopReason() {
    return this.page.getByTestId("stop-reason");
  }

  /** The debits the payment raised, newest first. */
  debits() {
    return this.page.getByTestId("payment-transaction-row");
  }

  /** The mandate's status as the payment's mandate card shows it. */
  mandateStatus() {
    return this.mandateSummary().getByTestId("mandate-status");
  }

  /** The address of the mandate the payment collects under, from its card. */
  async mandatePath(): Promise<string> {
    const link = this.mandateSummary().getByTestId("mandate-link");
    await link.waitFor();
    return (await link.getAttribute("href")) ?? "";
  }
}

export type MandateActionName = "suspend" | "resume" | "cancel" | "resend_authentication" | "archive" | "restore";

/** /mandates/{id}: the mandate, its status and its actions. */
export class MandateDetailPage {
  constructor(private readonly page: Page) {}

  async open(id: string): Promise<void> {
    await this.page.goto(`/mandates/${id}`);
    await this.waitForIt();
  }

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("mandate-detail").waitFor();
    await this.status().waitFor();
  }

  status() {
    return this.page.getByTestId("mandate-detail").getByTestId("mandate-status").first();
  }

  action(action: MandateActionName) {
    return this.page.getByTestId(`mandate-${action}`);
  }

  /** Clicks an action and confirms it in the dialog. */
  async act(action: MandateActionName): Promise<void> {
    await this.action(action).click();
    const dialog = this.page.getByTestId("confirm-dialog");
    await dialog.waitFor();
    await dialog.getByTestId("confirm-action").click();
    await dialog.waitFor({ state: "detached" });
  }
}

/** /mandates: current or archived mandates. */
export class MandatesListPage {
  constructor(private readonly page: Page) {}

  async open(query = ""): Promise<void> {
    await this.page.goto(`/mandates${query}`);
    await this.waitForIt();
  }

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("mandates-page").waitFor();
  }

  async show(which: "current" | "archived"): Promise<void> {
    await this.page.getByTestId(`show-${which}`).click();
    await this.page.locator(`[data-testid="show-${which}"][aria-checked="true"]`).waitFor();
  }

  row(text: string) {
    return this.page.getByTestId("mandate-row").filter({ hasText: text });
  }

  rowById(id: string) {
    return this.page.locator(`[data-testid="mandate-row"][data-mandate-id="${id}"]`);
  }
}

/** The new-payment dialog, for filling field by field. */
export class NewPaymentForm {
  constructor(private readonly page: Page) {}

  dialog() {
    return this.page.getByTestId("new-payment-dialog");
  }

  async open(): Promise<void> {
    await this.page.getByTestId("new-payment").first().click();
    await this.dialog().waitFor();
  }

  async chooseCustomer(customerSearch: string, customerName: string): Promise<void> {
    await this.dialog().getByTestId("customer-picker-search").fill(customerSearch);
    await this.dialog().getByTestId("customer-option").filter({ hasText: customerName }).click();
  }

  async openFor(customerSearch: string, customerName: string): Promise<void> {
    await this.open();
    await this.chooseCustomer(customerSearch, customerName);
  }

  field(testId: string) {
    return this.dialog().getByTestId(testId);
  }

  fieldError(testId: string) {
    return this.dialog().locator(".field", { has: this.page.getByTestId(testId) }).locator(".field-error");
  }

  /** Each field that shows an error, by its test id, with the error's text, in the form's order. */
  async errors(): Promise<[string, string][]> {
    return this.dialog()
      .locator(".field-invalid")
      .evaluateAll((fields) =>
        fields.map((field) => [
          field.querySelector("[data-testid]")?.getAttribute("data-testid") ?? "",
          field.querySelector(":scope > .field-error")?.textContent ?? "",
        ]),
      );
  }

  async submit(): Promise<void> {
    await this.dialog().getByTestId("payment-submit").click();
  }
}
