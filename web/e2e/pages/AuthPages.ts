import type { Page } from "playwright-core";

export type Account = { name: string; businessName: string; email: string; password: string };

export class SignupPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/auth/signup");
    await this.page.getByTestId("signup-page").waitFor();
  }

  async signUp(account: Account): Promise<void> {
    await this.page.getByLabel("Your name").fill(account.name);
    await this.page.getByLabel("Business name").fill(account.businessName);
    await this.page.getByLabel("E-mail address").fill(account.email);
    await this.page.getByLabel("Password").fill(account.password);
    await this.page.getByRole("button", { name: "Create account" }).click();
  }

  fieldError(label: string) {
    return this.page.locator(".field", { has: this.page.getByLabel(label) }).locator(".field-error");
  }
}

export class LoginPage {
  constructor(private readonly page: Page) {}

  async open(query = ""): Promise<void> {
    await this.page.goto(`/auth/login${query}`);
    await this.page.getByTestId("login-page").waitFor();
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.page.getByLabel("E-mail address").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  error() {
    return this.page.getByTestId("login-error");
  }

  /** The message under one field, such as "This field is required.". */
  fieldError(label: string) {
    return this.page.locator(".field", { has: this.page.getByLabel(label) }).locator(".field-error");
  }

  codeForm() {
    return this.page.getByTestId("login-code-form");
  }

  /** The second step, when the account has two-factor sign-in on. */
  async enterCode(code: string): Promise<void> {
    await this.page.getByLabel("Authentication code").fill(code);
    await this.page.getByRole("button", { name: "Verify" }).click();
  }

  async useBackupCode(): Promise<void> {
    await this.page.getByTestId("use-backup-code").click();
  }

  resetDone() {
    return this.page.getByTestId("login-reset-done");
  }

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("login-page").waitFor();
  }
}
