import type { Page } from "playwright-core";

/** /account/profile, card by card. */
export class ProfilePage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/account/profile");
    await this.waitForIt();
  }

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("profile-details").waitFor();
  }

  verifyBanner() {
    return this.page.getByTestId("verify-email-banner");
  }

  async resendVerification(): Promise<void> {
    await this.page.getByTestId("resend-verification").click();
  }

  twoFactorRequired() {
    return this.page.getByTestId("two-factor-required");
  }

  emailCard() {
    return this.page.getByTestId("profile-email");
  }

  /** The language saved on the profile, as its form shows it. */
  savedLanguage() {
    return this.page.getByTestId("profile-details").locator('select[name="language"]');
  }

  async saveDetails(details: { name?: string; language?: "en" | "afr" }): Promise<void> {
    const card = this.page.getByTestId("profile-details");
    if (details.name !== undefined) await card.locator('input[name="name"]').fill(details.name);
    if (details.language) await card.locator('select[name="language"]').selectOption(details.language);
    await this.page.getByTestId("save-details").click();
  }

  async changeEmail(newEmail: string, currentPassword: string): Promise<void> {
    const card = this.emailCard();
    await card.locator('input[name="newEmail"]').fill(newEmail);
    await card.locator('input[name="currentPassword"]').fill(currentPassword);
    await this.page.getByTestId("change-email").click();
  }

  async changePassword(current: string, next: string, confirm = next): Promise<void> {
    const card = this.page.getByTestId("profile-password");
    await card.locator('input[name="currentPassword"]').fill(current);
    await card.locator('input[name="newPassword"]').fill(next);
    await card.locator('input[name="confirmPassword"]').fill(confirm);
    await this.page.getByTestId("change-password").click();
  }

  passwordCard() {
    return this.page.getByTestId("profile-password");
  }

  twoFactorStatus() {
    return this.page.getByTestId("two-factor-status");
  }

  /** Starts turning two-factor sign-in on and returns the secret for the authenticator. */
  async beginTwoFactor(): Promise<string> {
    await this.page.getByTestId("turn-on-two-factor").click();
    const secret = this.page.getByTestId("two-factor-secret");
    await this.page.getByTestId("two-factor-qr").waitFor();
    return (await secret.getAttribute("data-secret")) ?? "";
  }

  async confirmTwoFactor(code: string): Promise<void> {
    await this.page.getByTestId("enrolment-code").fill(code);
    await this.page.getByTestId("confirm-two-factor").click();
  }

  enrolmentError() {
    return this.page.getByTestId("two-factor-enrolment").locator(".field-error");
  }

  async backupCodes(): Promise<string[]> {
    await this.page.getByTestId("backup-codes").waitFor();
    return this.page.getByTestId("backup-code").allTextContents();
  }

  async savedBackupCodes(): Promise<void> {
    await this.page.getByTestId("backup-codes-saved").click();
  }

  backupCodesLeft() {
    return this.page.getByTestId("backup-codes-left");
  }

  sessions() {
    return this.page.getByTestId("session-row");
  }

  otherSession() {
    return this.page.locator('[data-testid="session-row"]:not([data-current])');
  }

  async signOutOtherSession(): Promise<void> {
    await this.otherSession().first().getByTestId("sign-out-session").click();
  }
}
