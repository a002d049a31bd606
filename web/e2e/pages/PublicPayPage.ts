import type { Page } from "playwright-core";

export type CardAnswers = { name: string; email: string; cardNumber: string; expiry?: string; cvv?: string };
export type BankAnswers = { name: string; email: string; bank: string };

/**
 * The public pay page `/pay/{id}` as a payer sees it: server-rendered, so every
 * step is a whole new page and nothing here needs JavaScript in the browser.
 * Waits are on what the next page shows, never on timers.
 */
export class PublicPayPage {
  constructor(private readonly page: Page) {}

  async open(pageId: string, query = ""): Promise<void> {
    await this.page.goto(`/pay/${pageId}${query}`);
    await this.form().waitFor();
  }

  form() {
    return this.page.locator("form[method=post]").first();
  }

  field(name: "amount" | "name" | "email" | "cardNumber" | "expiry" | "cvv" | "bank") {
    return this.form().locator(`[name="${name}"]`);
  }

  /** The message beside one field, as the server rendered it (`card-number`, `expiry`, …). */
  fieldError(id: string) {
    return this.page.locator(`#${id}-error`);
  }

  heading() {
    return this.page.locator("h1");
  }

  /** The message at the top of the form (a refusal or "check the marked fields"). */
  problem() {
    return this.page.locator('[role="alert"]');
  }

  methodTab(label: string) {
    return this.page.getByRole("navigation").getByRole("link", { name: label, exact: true });
  }

  async chooseMethod(label: string): Promise<void> {
    await this.methodTab(label).click();
    await this.page.locator(`nav a[aria-current="page"]`, { hasText: label }).waitFor();
  }

  async fillCard(answers: CardAnswers): Promise<void> {
    await this.field("name").fill(answers.name);
    await this.field("email").fill(answers.email);
    await this.field("cardNumber").fill(answers.cardNumber);
    await this.field("expiry").fill(answers.expiry ?? "12/30");
    await this.field("cvv").fill(answers.cvv ?? "123");
  }

  async fillBank(answers: BankAnswers): Promise<void> {
    await this.field("name").fill(answers.name);
    await this.field("email").fill(answers.email);
    await this.field("bank").selectOption({ label: answers.bank });
  }

  /** Sends the form; the caller waits for what the answer page shows. */
  async submit(): Promise<void> {
    await this.form().locator('button[type="submit"]').click();
  }

  /** On the simulated 3-D Secure or bank step: the button with this label. */
  async answerStep(label: string): Promise<void> {
    await this.page.getByRole("button", { name: label, exact: true }).click();
  }

  async waitForHeading(text: string): Promise<void> {
    await this.page.locator("h1", { hasText: text }).waitFor();
  }
}
