import type { Page } from "playwright-core";

export type PayPageFields = Partial<{
  title: string;
  reference: string;
  description: string;
  amount: string;
  maxUses: string;
  colour: string;
}>;

const INPUTS: Record<keyof PayPageFields, string> = {
  title: "page-title-input",
  reference: "page-reference-input",
  description: "page-description-input",
  amount: "page-amount-input",
  maxUses: "page-max-uses-input",
  colour: "page-colour-input",
};

/** /payments/pages: the list, its form and its share dialog. */
export class PayPagesPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/payments/pages");
    await this.page.getByTestId("pay-pages-page").waitFor();
  }

  dialog() {
    return this.page.getByTestId("pay-page-dialog");
  }

  async fill(fields: PayPageFields): Promise<void> {
    for (const [field, value] of Object.entries(fields) as [keyof PayPageFields, string][]) {
      await this.dialog().getByTestId(INPUTS[field]).fill(value);
    }
  }

  /** Ticks exactly these methods. */
  async chooseMethods(methods: string[]): Promise<void> {
    for (const box of await this.dialog().locator('[data-testid^="page-method-"]').all()) {
      const method = (await box.getAttribute("data-testid"))?.replace("page-method-", "") ?? "";
      await box.setChecked(methods.includes(method));
    }
  }

  async startNew(): Promise<void> {
    await this.page.getByTestId("new-pay-page").first().click();
    await this.dialog().waitFor();
  }

  async submit(): Promise<void> {
    await this.dialog().getByTestId("page-submit").click();
  }

  async submitAndClose(): Promise<void> {
    await this.submit();
    await this.dialog().waitFor({ state: "detached" });
  }

  row(title: string) {
    return this.page.getByTestId("pay-page-row").filter({ hasText: title });
  }

  async edit(title: string): Promise<void> {
    await this.row(title).getByTestId("pay-page-edit").click();
    await this.dialog().waitFor();
  }

  async share(title: string) {
    await this.row(title).getByTestId("pay-page-share").click();
    const dialog = this.page.getByTestId("share-dialog");
    await dialog.waitFor();
    return dialog;
  }
}

export class OrdersPage {
  constructor(private readonly page: Page) {}

  async open(query = ""): Promise<void> {
    await this.page.goto(`/commerce/orders${query}`);
    await this.page.getByTestId("orders-page").waitFor();
  }
}

export class CardsPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/cards");
    await this.page.getByTestId("cards-page").waitFor();
  }
}

export type CardPayment = { name: string; email: string; cardNumber: string };

/** The public pay page as a payer fills it in by card (server-rendered, the backend's). */
export async function payByCard(page: Page, pageId: string, payment: CardPayment): Promise<void> {
  await page.goto(`/pay/${pageId}?method=card`);
  const form = page.locator("form[method=post]").first();
  await form.locator('input[name="name"]').fill(payment.name);
  await form.locator('input[name="email"]').fill(payment.email);
  await form.locator('input[name="cardNumber"]').fill(payment.cardNumber);
  await form.locator('input[name="expiry"]').fill("12/30");
  await form.locator('input[name="cvv"]').fill("123");
  // The page it was on is already loaded: wait for the answer to the post itself, or
  // the next goto could cancel the payment before the server sees it.
  const answered = page.waitForEvent("framenavigated", (frame) => frame === page.mainFrame());
  await form.locator('button[type="submit"]').click();
  await answered;
  await page.waitForLoadState("load");
}
