import { describe, expect, it } from "vitest";
import { openBrowser, shootWindow } from "./browser";
import { signUpFresh } from "./flows";
import { waitForMailLink } from "./mail";
import { LoginPage } from "./pages/AuthPages";
import { ProfilePage } from "./pages/ProfilePage";
import { Shell } from "./pages/Shell";
import { freshCode } from "./totp";

describe("signing in by a mailed link", () => {
  it("mails a link that signs in once, on the page asked for", { timeout: 90_000 }, async () => {
    const session = await openBrowser();
    const other = await openBrowser({ locale: "af-ZA", colorScheme: "dark", viewport: { width: 390, height: 844 } });
    try {
      const page = await session.newPage();
      const account = await signUpFresh(page, "link");
      await new Shell(page).signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");

      await page.goto("/auth/login?redirect=%2Fpayments%2Ftransactions");
      await page.getByTestId("login-by-link").click();
      await page.getByTestId("login-link-form").waitFor();
      const asked = Date.now();
      await page.getByLabel("E-mail address").fill(account.email);
      await page.getByTestId("login-link-submit").click();
      await expect.poll(() => page.getByTestId("login-link-sent").textContent()).toContain(account.email);
      await shootWindow(page, "sign-in-link-sent-en-light");

      const mail = await waitForMailLink(account.email, { after: asked });
      expect(mail.link).toContain("/api/auth/callback/email?");
      await page.goto(mail.link);
      await page.waitForURL((url) => url.pathname === "/payments/transactions");
      await new Shell(page).waitUntilLive();
      await page.getByTestId("transactions-page").waitFor();

      // The same link a second time, in another browser: refused, in words.
      const second = await other.newPage();
      await second.goto(mail.link);
      await second.waitForURL((url) => url.pathname === "/auth/login");
      await expect.poll(() => second.getByTestId("login-error").textContent()).toContain("aanmeldskakel");
      await shootWindow(second, "sign-in-link-used-afr-dark-phone");
    } finally {
      await other.close();
      await session.close();
    }
  });

  it("sends the visitor to the error page when the sign-in providers cannot be fetched", async () => {
    const session = await openBrowser();
    try {
      const page = await session.newPage();
      // The network fails for the provider list only: the rest of the page loads.
      await page.route("**/api/auth/providers", (route) => route.abort("connectionfailed"));
      await page.goto("/auth/login");
      await page.getByTestId("server-error").waitFor();
      await page.unroute("**/api/auth/providers");
      await page.goto("/auth/login");
      await page.getByTestId("login-by-link").waitFor();
    } finally {
      await session.close();
    }
  });

  it("asks a two-factor user for their code after the link", { timeout: 120_000 }, async () => {
    const session = await openBrowser();
    try {
      const page = await session.newPage();
      const account = await signUpFresh(page, "link2fa");
      const profile = new ProfilePage(page);
      await profile.open();
      const secret = await profile.beginTwoFactor();
      await profile.confirmTwoFactor(await freshCode(secret));
      await profile.backupCodes();
      await profile.savedBackupCodes();
      await new Shell(page).signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");

      await page.getByTestId("login-by-link").click();
      const asked = Date.now();
      await page.getByLabel("E-mail address").fill(account.email);
      await page.getByTestId("login-link-submit").click();
      await page.getByTestId("login-link-sent").waitFor();
      const mail = await waitForMailLink(account.email, { after: asked });
      await page.goto(mail.link);
      // The code step, the link held by the server meanwhile.
      const login = new LoginPage(page);
      await login.codeForm().waitFor();
      expect(new URL(page.url()).search).not.toContain("token");
      await login.enterCode("000000");
      await expect.poll(() => login.error().textContent()).toBe("That code is not right. Enter the current code from your app.");
      await login.enterCode(await freshCode(secret));
      await page.waitForURL((url) => url.pathname === "/");
      await new Shell(page).waitUntilLive();
    } finally {
      await session.close();
    }
  });
});
