import { describe, expect, it } from "vitest";
import { openBrowser, shoot } from "./browser";
import { signUpFresh } from "./flows";
import { BackupCodeSignInPage } from "./pages/RecoveryPages";
import { LoginPage } from "./pages/AuthPages";
import { BusinessInfoPage } from "./pages/BusinessInfoPage";
import { ProfilePage } from "./pages/ProfilePage";
import { Shell } from "./pages/Shell";
import { freshCode } from "./totp";

describe("two-factor sign-in", () => {
  // Each code is accepted once per 30 s step: the test waits for fresh steps.
  it("turns on with an authenticator, then signs in with a code and with a backup code", { timeout: 150_000 }, async () => {
    const browser = await openBrowser();
    try {
      const page = await browser.newPage();
      const account = await signUpFresh(page, "twofactor");
      const profile = new ProfilePage(page);
      await profile.open();
      await expect.poll(() => profile.twoFactorStatus().textContent()).toBe("Off");
      const secret = await profile.beginTwoFactor();
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      await shoot(page, "two-factor-enrolment-en-light");

      await profile.confirmTwoFactor("000000");
      await expect.poll(() => profile.enrolmentError().textContent()).toBe("That code is not right. Enter the current code from your app.");
      await profile.confirmTwoFactor(await freshCode(secret));
      const codes = await profile.backupCodes();
      expect(codes).toHaveLength(10);
      await shoot(page, "two-factor-backup-codes-en-light");
      await profile.savedBackupCodes();
      await expect.poll(() => profile.twoFactorStatus().textContent()).toBe("On");
      await expect.poll(() => profile.backupCodesLeft().textContent()).toBe("Backup codes left: 10");

      const shell = new Shell(page);
      await shell.signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");
      const login = new LoginPage(page);
      await login.signIn(account.email, account.password);
      await login.codeForm().waitFor();
      expect(page.url()).not.toContain("password");
      await shoot(page, "login-code-en-light");
      await login.enterCode("000000");
      await expect.poll(() => login.error().textContent()).toBe("That code is not right. Enter the current code from your app.");
      await login.enterCode(await freshCode(secret));
      await page.waitForURL((url) => url.pathname === "/");
      await shell.waitUntilLive();

      await shell.signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");
      await login.signIn(account.email, account.password);
      await login.codeForm().waitFor();
      await login.useBackupCode();
      const backup = new BackupCodeSignInPage(page);
      await backup.waitForIt();
      expect(await backup.email().inputValue()).toBe(account.email);
      expect(await backup.password().inputValue()).toBe(account.password);
      await shoot(page, "backup-code-en-light");
      await backup.signIn("not-a-code");
      await expect.poll(() => backup.error().textContent()).toBe("That backup code is not right, or it was used already.");
      await backup.signIn(codes[0]);
      await page.waitForURL((url) => url.pathname === "/");
      await shell.waitUntilLive();

      await profile.open();
      await expect.poll(() => profile.backupCodesLeft().textContent()).toBe("Backup codes left: 9");
      await shoot(page, "profile-two-factor-on-en-light");

      // A used backup code does not work twice, even from a fresh visit to the page.
      await shell.signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");
      await page.goto("/auth/2fa/backup");
      await backup.waitForIt();
      await backup.email().fill(account.email);
      await backup.password().fill(account.password);
      await backup.signIn(codes[0]);
      await expect.poll(() => backup.error().textContent()).toBe("That backup code is not right, or it was used already.");
    } finally {
      await browser.close();
    }
  });
});

describe("signed-in browsers", () => {
  it("lists both browsers and signs the other one out", async () => {
    const first = await openBrowser();
    const second = await openBrowser();
    try {
      const page = await first.newPage();
      const account = await signUpFresh(page, "sessions");
      const other = await second.newPage();
      const otherLogin = new LoginPage(other);
      await otherLogin.open();
      await otherLogin.signIn(account.email, account.password);
      await other.waitForURL((url) => url.pathname === "/");
      await other.goto("/customers");
      await new Shell(other).waitUntilLive();

      const profile = new ProfilePage(page);
      await profile.open();
      await expect.poll(() => profile.sessions().count()).toBe(2);
      expect(await profile.sessions().filter({ hasText: "This browser" }).count()).toBe(1);
      expect(await profile.otherSession().textContent()).toContain("Chrome on Linux");
      await shoot(page, "profile-sessions-en-light");

      await profile.signOutOtherSession();
      await other.waitForURL((url) => url.pathname === "/auth/login");
      await expect.poll(() => profile.sessions().count()).toBe(1);
      await new LoginPage(other).waitForIt();
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("business info", () => {
  it("shows one tab's edits in another without a reload, and keeps what a user is typing", async () => {
    const browser = await openBrowser();
    try {
      const setup = await browser.newPage();
      await signUpFresh(setup, "business");
      await setup.close();
      const tabA = await browser.newPage();
      const tabB = await browser.newPage();
      const infoA = new BusinessInfoPage(tabA);
      const infoB = new BusinessInfoPage(tabB);
      await infoA.open();
      await infoB.open();
      await new Shell(tabB).waitUntilLive();

      await tabA.bringToFront();
      await infoA.fill({ statementName: "KAROOGYM123" });
      await expect.poll(() => infoA.counter().textContent()).toBe("11 of 10 characters");
      await infoA.fill({ registrationNumber: "12345", vatNumber: "123", supportEmail: "not-an-email", supportPhone: "082-123" });
      await infoA.save();
      // One press names every mistake, and says what each field takes.
      await expect.poll(() => infoA.fieldError("statementName").textContent()).toBe("This is too long: at most 10 characters.");
      expect(await infoA.fieldError("registrationNumber").textContent()).toBe("Write the company registration number as YYYY/NNNNNN/NN, for example 2015/123456/07.");
      expect(await infoA.fieldError("vatNumber").textContent()).toBe("A South African VAT number has 10 digits and starts with 4.");
      expect(await infoA.fieldError("supportEmail").textContent()).toBe("Enter a valid e-mail address.");
      expect(await infoA.fieldError("supportPhone").textContent()).toContain("cellphone or landline");
      await shoot(tabA, "business-info-every-mistake-en-light");

      await infoA.fill({ statementName: "KAROO-GYM" });
      await infoA.save();
      await expect.poll(() => infoA.fieldError("statementName").textContent()).toBe("Use only the letters A to Z, digits and spaces.");
      // A landline is a phone number the server takes.
      await infoA.fill({ statementName: "KAROOGYM", registrationNumber: "", vatNumber: "", supportPhone: "021 555 1234" });

      await infoA.fill({ legalName: "Karoo Gym (Pty) Ltd", tradingName: "Karoo Gym", supportEmail: "help@karoogym.co.za" });
      await infoA.save();
      await infoA.saved().waitFor();
      await expect.poll(() => infoB.field("tradingName").inputValue()).toBe("Karoo Gym");
      expect(await infoB.field("statementName").inputValue()).toBe("KAROOGYM");
      await shoot(tabB, "business-info-en-light");

      // Tab B is mid-edit when tab A saves: B keeps its typing and offers A's values.
      await tabB.bringToFront();
      await infoB.fill({ industry: "Fitness" });
      await tabA.bringToFront();
      await infoA.fill({ tradingName: "Karoo Fitness" });
      await infoA.save();
      await infoA.saved().waitFor();
      await infoB.changedElsewhere().waitFor();
      // It says who saved which field, before B saves.
      await expect.poll(() => infoB.changedElsewhere().textContent()).toContain("Thandi Nkosi saved Trading name while you were editing.");
      expect(await infoB.field("industry").inputValue()).toBe("Fitness");
      expect(await infoB.field("tradingName").inputValue()).toBe("Karoo Gym");
      await shoot(tabB, "business-info-changed-elsewhere-en-light");
      await tabB.bringToFront();
      await infoB.reloadValues();
      expect(await infoB.field("tradingName").inputValue()).toBe("Karoo Fitness");
      expect(await infoB.field("industry").inputValue()).toBe("");

      // B saves over A's newer save without reloading: A changed only the trading name, B only
      // the industry, so nothing clashes and both stand, with no choice to make.
      await infoB.fill({ industry: "Gym" });
      await tabA.bringToFront();
      await infoA.fill({ tradingName: "Karoo Active" });
      await infoA.save();
      await infoA.saved().waitFor();
      await infoB.changedElsewhere().waitFor();
      await tabB.bringToFront();
      await infoB.save();
      await infoB.saved().waitFor();
      expect(await tabB.getByTestId("conflict").count()).toBe(0);
      await expect.poll(() => infoA.field("industry").inputValue()).toBe("Gym");
      expect(await infoA.field("tradingName").inputValue()).toBe("Karoo Active");
    } finally {
      await browser.close();
    }
  });

  it("sends everyone without two-factor sign-in to their profile once the owner requires it", async () => {
    const browser = await openBrowser();
    try {
      const tabA = await browser.newPage();
      await signUpFresh(tabA, "require2fa");
      const tabB = await browser.newPage();
      await tabB.goto("/customers");
      await new Shell(tabB).waitUntilLive();

      await tabA.bringToFront();
      const info = new BusinessInfoPage(tabA);
      await info.open();
      expect(await info.requireTwoFactor().getAttribute("aria-checked")).toBe("false");
      await info.requireTwoFactor().click();
      // The rule arrives live: the other tab leaves the customers list for the profile.
      await tabB.waitForURL((url) => url.pathname === "/account/profile");
      const profile = new ProfilePage(tabB);
      await expect.poll(() => profile.twoFactorRequired().textContent()).toBe(
        "Your team requires two-factor sign-in: turn it on to continue.",
      );
      await tabA.waitForURL((url) => url.pathname === "/account/profile");
      await tabB.goto("/customers");
      await tabB.waitForURL((url) => url.pathname === "/account/profile");
      await shoot(tabB, "profile-two-factor-required-en-light");
    } finally {
      await browser.close();
    }
  });
});
