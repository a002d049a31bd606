import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, uniqueEmail, type Session } from "./browser";
import { signUpFresh } from "./flows";
import { waitForMailLink } from "./mail";
import { LoginPage } from "./pages/AuthPages";
import { ProfilePage } from "./pages/ProfilePage";
import { ForgotPasswordPage, ResetPasswordPage, VerifyEmailPage } from "./pages/RecoveryPages";
import { Shell } from "./pages/Shell";

describe("forgotten password", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowser();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("resets the password by the link in the mail; the old one stops working", async () => {
    const page = await session.newPage();
    const account = await signUpFresh(page, "forgot");
    await new Shell(page).signOut();
    await page.waitForURL((url) => url.pathname === "/auth/login");

    const forgot = new ForgotPasswordPage(page);
    await forgot.open();
    // The same answer for an address nobody has: the page does not tell who has an account.
    await forgot.request(uniqueEmail("nobody"));
    await expect.poll(() => forgot.sent().textContent()).toBe("If an account exists for that address, we sent a link. Check your inbox.");
    await forgot.open();
    const asked = Date.now();
    await forgot.request(account.email);
    await forgot.sent().waitFor();
    await shoot(page, "forgot-sent-en-light");

    const mail = await waitForMailLink(account.email, { after: asked });
    expect(new URL(mail.link).pathname).toMatch(/^\/auth\/reset\/[A-Za-z0-9_-]+$/);
    await page.goto(mail.link);
    const reset = new ResetPasswordPage(page);
    await reset.waitForIt();
    await reset.choose("a-brand-new-passphrase", "a-different-passphrase");
    await expect.poll(() => reset.fieldError("Confirm new password").textContent()).toBe("The passwords do not match.");
    await shoot(page, "reset-mismatch-en-light");
    await reset.choose("a-brand-new-passphrase");

    await page.waitForURL((url) => url.pathname === "/auth/login" && url.searchParams.get("reset") === "done");
    const login = new LoginPage(page);
    await expect.poll(() => login.resetDone().textContent()).toBe("Your password was changed. Sign in with the new one.");
    await shoot(page, "login-reset-done-en-light");
    await login.signIn(account.email, account.password);
    await expect.poll(() => login.error().textContent()).toContain("do not match");
    await login.signIn(account.email, "a-brand-new-passphrase");
    await page.waitForURL((url) => url.pathname === "/");
    await new Shell(page).waitUntilLive();

    // A link works once.
    await new Shell(page).signOut();
    await page.waitForURL((url) => url.pathname === "/auth/login");
    await page.goto(mail.link);
    await reset.waitForIt();
    // Said on arrival, and no new password is asked for.
    await expect.poll(() => reset.error().textContent()).toContain("This link is invalid or has expired.");
    expect(await page.getByLabel("New password", { exact: true }).count()).toBe(0);
    await shoot(page, "reset-invalid-en-light");
    await page.close();
  });
});

describe("e-mail verification", () => {
  it("asks to verify until the link from the mail is followed", async () => {
    const browser = await openBrowser();
    try {
      const page = await browser.newPage();
      const signedUp = Date.now();
      const account = await signUpFresh(page, "verify");
      const profile = new ProfilePage(page);
      await expect.poll(() => profile.verifyBanner().textContent()).toContain("Please verify your e-mail address");
      await shoot(page, "verify-banner-en-light");
      await waitForMailLink(account.email, { after: signedUp });

      const resent = Date.now();
      await profile.resendVerification();
      await expect.poll(() => profile.verifyBanner().textContent()).toContain(`We sent a new link to ${account.email}.`);
      const mail = await waitForMailLink(account.email, { after: resent });
      expect(new URL(mail.link).pathname).toMatch(/^\/account\/teams\/email\/verify\/[A-Za-z0-9_-]+$/);

      await page.goto(mail.link);
      const verify = new VerifyEmailPage(page);
      await expect.poll(() => verify.done().textContent()).toBe(`Your e-mail address ${account.email} is verified.`);
      await shoot(page, "verify-done-en-light");

      await profile.open();
      await expect.poll(() => profile.emailCard().textContent()).toContain("Verified");
      expect(await profile.verifyBanner().count()).toBe(0);

      await page.goto("/account/teams/email/verify/not_a_real_token");
      await expect.poll(() => verify.error().textContent()).toBe("This link is invalid or has expired.");
    } finally {
      await browser.close();
    }
  });

  it("verifies a link opened while signed out", async () => {
    const first = await openBrowser();
    const second = await openBrowser({ locale: "af-ZA", colorScheme: "dark" });
    try {
      const page = await first.newPage();
      const signedUp = Date.now();
      const account = await signUpFresh(page, "verify-out");
      const mail = await waitForMailLink(account.email, { after: signedUp });
      const other = await second.newPage();
      await other.goto(mail.link);
      await expect.poll(() => new VerifyEmailPage(other).done().textContent()).toBe(`Jou e-posadres ${account.email} is bevestig.`);
      await shoot(other, "verify-done-afr-dark");
    } finally {
      await first.close();
      await second.close();
    }
  });
});
