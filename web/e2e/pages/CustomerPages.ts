import type { Page } from "playwright-core";
import { shownErrors } from "./fieldErrors";

export type CustomerFields = Partial<{
  name: string;
  email: string;
  cellphone: string;
  idType: string;
  idNumber: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  postalCode: string;
  reference: string;
}>;

async function fill(page: Page, fields: CustomerFields): Promise<void> {
  for (const [field, value] of Object.entries(fields)) {
    const input = page.getByTestId(`customer-${field}`);
    if (field === "idType") await input.selectOption(value);
    else await input.fill(value);
  }
}

export class CustomersListPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/customers");
    await this.page.getByTestId("customers-page").waitFor();
  }

  async create(fields: CustomerFields): Promise<void> {
    await this.page.getByTestId("new-customer").first().click();
    await this.page.getByTestId("create-customer-dialog").waitFor();
    await fill(this.page, fields);
    await this.page.getByTestId("customer-submit").click();
  }

  row(name: string) {
    return this.page.getByTestId("customer-row").filter({ hasText: name });
  }

  rows() {
    return this.page.getByTestId("customer-row");
  }

  async search(text: string): Promise<void> {
    await this.page.getByTestId("customer-search").fill(text);
  }

  async showStatus(status: "active" | "archived" | "all"): Promise<void> {
    await this.page.getByTestId(`status-${status}`).click();
  }

  fieldError(field: string) {
    return this.page.locator(".field", { has: this.page.getByTestId(`customer-${field}`) }).locator(".field-error");
  }
}

export class CustomerDetailPage {
  constructor(private readonly page: Page) {}

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("customer-detail").locator(".page-title").waitFor();
  }

  title() {
    return this.page.getByTestId("customer-detail").locator(".page-title");
  }

  async edit(fields: CustomerFields): Promise<void> {
    await this.page.getByTestId("edit-customer").click();
    await this.page.getByTestId("edit-customer-dialog").waitFor();
    await fill(this.page, fields);
    await this.page.getByTestId("customer-submit").click();
    await this.page.getByTestId("edit-customer-dialog").waitFor({ state: "detached" });
  }

  /** Opens the edit form and fills it in, without saving. */
  async startEdit(fields: CustomerFields): Promise<void> {
    await this.page.getByTestId("edit-customer").click();
    await this.page.getByTestId("edit-customer-dialog").waitFor();
    await fill(this.page, fields);
  }

  async saveEdit(): Promise<void> {
    await this.page.getByTestId("customer-submit").click();
  }

  editDialog() {
    return this.page.getByTestId("edit-customer-dialog");
  }

  /** Inside the open form: a teammate saved this customer meanwhile (who, which fields). */
  savedMeanwhile() {
    return this.page.getByTestId("saved-meanwhile");
  }

  conflictLead() {
    return this.page.getByTestId("conflict-lead");
  }

  editingToo() {
    return this.page.getByTestId("editing-too");
  }

  conflict() {
    return this.page.getByTestId("conflict");
  }

  async archive(): Promise<void> {
    await this.page.getByTestId("archive-customer").click();
    await this.page.getByTestId("confirm-archive").click();
    await this.page.getByTestId("archive-dialog").waitFor({ state: "detached" });
  }

  async restore(): Promise<void> {
    await this.page.getByTestId("restore-customer").click();
  }

  status() {
    return this.page.getByTestId("customer-status");
  }

  viewingToo() {
    return this.page.getByTestId("on-this-page");
  }

  /** One of the lists under the bank accounts: `customer-mandates`, `customer-payments-once`, … */
  related(testId: string) {
    return this.page.getByTestId(testId);
  }
}

export type BankAccountFields = Partial<{
  bank: string;
  branchCode: string;
  accountType: string;
  holderName: string;
  accountNumber: string;
}>;

/** The bank accounts card on a customer's page, and its add and remove dialogs. */
export class BankAccountsCard {
  constructor(private readonly page: Page) {}

  card() {
    return this.page.getByTestId("bank-accounts");
  }

  rows() {
    return this.page.getByTestId("bank-account-row");
  }

  row(text: string) {
    return this.rows().filter({ hasText: text });
  }

  async waitForIt(): Promise<void> {
    await this.card().locator('[data-testid="bank-account-table"], [data-testid="bank-accounts-empty"]').first().waitFor();
  }

  async openAdd(): Promise<void> {
    await this.page.getByTestId("add-bank-account").click();
    await this.dialog().waitFor();
  }

  dialog() {
    return this.page.getByTestId("add-bank-account-dialog");
  }

  field(field: keyof BankAccountFields) {
    return this.page.getByTestId(`bank-account-${field}`);
  }

  /** Fills in order: the bank first, so a branch code given here replaces the one it filled. */
  async fill(fields: BankAccountFields): Promise<void> {
    if (fields.bank !== undefined) await this.field("bank").selectOption(fields.bank);
    for (const [field, value] of Object.entries(fields) as [keyof BankAccountFields, string][]) {
      if (field === "bank") continue;
      if (field === "accountType") await this.field(field).selectOption(value);
      else await this.field(field).fill(value);
    }
  }

  async submit(): Promise<void> {
    await this.page.getByTestId("bank-account-submit").click();
  }

  async add(fields: BankAccountFields): Promise<void> {
    await this.openAdd();
    await this.fill(fields);
    await this.submit();
    await this.dialog().waitFor({ state: "detached" });
  }

  fieldError(field: keyof BankAccountFields) {
    return this.page.locator(".field", { has: this.field(field) }).locator(".field-error");
  }

  /** Each field of the add dialog that shows an error, by its test id, with the error's text. */
  errors(): Promise<[string, string][]> {
    return shownErrors(this.dialog());
  }

  async closeDialog(): Promise<void> {
    await this.page.keyboard.press("Escape");
    await this.dialog().waitFor({ state: "detached" });
  }

  async remove(text: string): Promise<void> {
    await this.row(text).getByTestId("remove-bank-account").click();
    await this.page.getByTestId("confirm-remove-bank-account").click();
    await this.page.getByTestId("remove-bank-account-dialog").waitFor({ state: "detached" });
  }
}
