import type { Page } from "playwright-core";

export class ForgotPasswordPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/auth/forgot");
    await this.page.getByTestId("forgot-page").waitFor();
  }

  async request(email: string): Promise<void> {
    await this.page.getByLabel("E-mail address").fill(email);
    await this.page.getByRole("button", { name: "Send link" }).click();
  }

  sent() {
    return this.page.getByTestId("forgot-sent");
  }
}

export class ResetPasswordPage {
  constructor(private readonly page: Page) {}

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("reset-page").waitFor();
  }

  async choose(password: string, confirm = password): Promise<void> {
    await this.page.getByLabel("New password", { exact: true }).fill(password);
    await this.page.getByLabel("Confirm new password", { exact: true }).fill(confirm);
    await this.page.getByRole("button", { name: "Change password" }).click();
  }

  fieldError(label: string) {
    return this.page.locator(".field", { has: this.page.getByLabel(label, { exact: true }) }).locator(".field-error");
  }

  error() {
    return this.page.getByTestId("reset-error");
  }
}

export class BackupCodeSignInPage {
  constructor(private readonly page: Page) {}

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("backup-page").waitFor();
  }

  email() {
    return this.page.getByLabel("E-mail address");
  }

  password() {
    return this.page.getByLabel("Password", { exact: true });
  }

  async signIn(code: string): Promise<void> {
    await this.page.getByLabel("Backup code").fill(code);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  error() {
    return this.page.getByTestId("backup-error");
  }
}

export class VerifyEmailPage {
  constructor(private readonly page: Page) {}

  done() {
    return this.page.getByTestId("verify-email-done");
  }

  error() {
    return this.page.getByTestId("verify-email-error");
  }
}
