import type { Page } from "playwright-core";

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
    return this.page.getByTestId("viewing-too");
  }
}
