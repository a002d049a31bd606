import type { Page } from "playwright-core";

export type BusinessField =
  | "legalName"
  | "tradingName"
  | "registrationNumber"
  | "vatNumber"
  | "industry"
  | "physicalAddress"
  | "contactPerson"
  | "supportEmail"
  | "supportPhone"
  | "statementName";

export class BusinessInfoPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/account/business-info");
    await this.waitForIt();
  }

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("business-info-form").waitFor();
  }

  field(name: BusinessField) {
    return this.page.getByTestId(`business-${name}`);
  }

  async fill(values: Partial<Record<BusinessField, string>>): Promise<void> {
    for (const [name, value] of Object.entries(values)) await this.field(name as BusinessField).fill(value);
  }

  async save(): Promise<void> {
    await this.page.getByTestId("save-business-info").click();
  }

  saved() {
    return this.page.getByTestId("business-info-saved");
  }

  fieldError(name: BusinessField) {
    return this.page.locator(".field", { has: this.field(name) }).locator(".field-error");
  }

  counter() {
    return this.page.getByTestId("statement-counter");
  }

  changedElsewhere() {
    return this.page.getByTestId("changed-elsewhere");
  }

  async reloadValues(): Promise<void> {
    await this.page.getByTestId("reload-values").click();
  }

  requireTwoFactor() {
    return this.page.getByTestId("require-two-factor");
  }
}
