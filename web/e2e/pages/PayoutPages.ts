import type { Page } from "playwright-core";
import { shownErrors } from "./fieldErrors";

export type SettlementFields = Partial<{
  bank: string;
  branchCode: string;
  accountType: string;
  holderName: string;
  accountNumber: string;
  confirmation: string;
}>;

/** The settlement account dialog on the payouts page. */
export class SettlementAccountDialog {
  constructor(private readonly page: Page) {}

  dialog() {
    return this.page.getByTestId("settlement-account-dialog");
  }

  async open(): Promise<void> {
    await this.page.getByTestId("change-account").click();
    await this.dialog().waitFor();
  }

  field(field: keyof SettlementFields) {
    return this.dialog().getByTestId(`settlement-${field}`);
  }

  /** Fills in order: the bank first, so a branch code given here replaces the one it filled. */
  async fill(fields: SettlementFields): Promise<void> {
    if (fields.bank !== undefined) await this.field("bank").selectOption(fields.bank);
    for (const [field, value] of Object.entries(fields) as [keyof SettlementFields, string][]) {
      if (field === "bank") continue;
      if (field === "accountType") await this.field(field).selectOption(value);
      else await this.field(field).fill(value);
    }
  }

  async save(): Promise<void> {
    await this.dialog().getByTestId("save-settlement-account").click();
  }

  errors(): Promise<[string, string][]> {
    return shownErrors(this.dialog());
  }

  async close(): Promise<void> {
    await this.page.keyboard.press("Escape");
    await this.dialog().waitFor({ state: "detached" });
  }
}
