import type { Page } from "playwright-core";

/** /developers/webhooks and /developers/webhooks/{id}: endpoints, their secrets and their delivery log. */
export class WebhooksPages {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/developers/webhooks");
    await this.page.getByTestId("webhooks-page").waitFor();
  }

  row(url: string) {
    return this.page.getByTestId("webhook-row").filter({ hasText: url });
  }

  /** Adds an endpoint; returns the signing secret the dialog shows once (the dialog stays open). */
  async add(url: string, description: string, eventTypes: string[]): Promise<string> {
    await this.page.getByTestId("webhook-add").click();
    const dialog = this.page.getByTestId("webhook-endpoint-dialog");
    await dialog.getByTestId("webhook-url").fill(url);
    await dialog.getByTestId("webhook-description").fill(description);
    for (const type of eventTypes) await dialog.getByTestId(`webhook-event-${type}`).check();
    await dialog.getByTestId("webhook-save").click();
    return (await dialog.getByTestId("webhook-secret-value").textContent()) ?? "";
  }

  async closeSecret(): Promise<void> {
    await this.page.getByTestId("webhook-secret-done").click();
    await this.page.getByTestId("webhook-secret").waitFor({ state: "detached" });
  }

  delivery(eventType: string) {
    return this.page.locator(`[data-testid="webhook-delivery"][data-event-type="${eventType}"]`);
  }
}

/** /developers/tokens: the stream's API tokens, made with a secret shown once, and revoked. */
export class ApiTokensPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/developers/tokens");
    await this.page.getByTestId("api-tokens-page").waitFor();
  }

  row(name: string) {
    return this.page.getByTestId("api-token-row").filter({ hasText: name });
  }

  /** Makes a token that reads customers; the secret is shown once, then the dialog is closed. */
  async create(name: string): Promise<void> {
    await this.page.getByTestId("api-token-create").click();
    const dialog = this.page.getByTestId("api-token-dialog");
    await dialog.getByTestId("api-token-name").fill(name);
    await dialog.getByTestId("api-token-access-customers").selectOption("read");
    await dialog.getByTestId("api-token-submit").click();
    await dialog.getByTestId("api-token-secret-value").waitFor();
    await dialog.getByTestId("api-token-secret-done").click();
    await this.row(name).locator('[data-testid="api-token-state"][data-state="active"]').waitFor();
  }

  async revoke(name: string): Promise<void> {
    await this.row(name).getByTestId("api-token-revoke").click();
    await this.page.getByTestId("confirm-action").click();
    await this.row(name).locator('[data-testid="api-token-state"][data-state="revoked"]').waitFor();
  }
}
