import { describe, expect, it } from "vitest";
import { openBrowser, shoot } from "./browser";
import { signUpFresh } from "./flows";
import { BusinessInfoPage } from "./pages/BusinessInfoPage";
import { ProfilePage } from "./pages/ProfilePage";
import { Shell } from "./pages/Shell";

describe("account screens in both languages and colour modes", () => {
  it("switches the interface language from the profile and looks right in afr and dark", async () => {
    const browser = await openBrowser({ colorScheme: "dark" });
    try {
      const page = await browser.newPage();
      const account = await signUpFresh(page, "looks");
      const profile = new ProfilePage(page);
      await profile.open();
      await shoot(page, "profile-en-dark");

      await profile.saveDetails({ name: "Thandi Nkosi-Botha", language: "afr" });
      await page.getByRole("heading", { name: "Profiel", exact: true }).waitFor();
      const cookie = (await browser.context.cookies()).find((entry) => entry.name === "locale");
      expect(cookie?.value).toBe("afr");
      await page.reload();
      await page.getByRole("heading", { name: "Profiel", exact: true }).waitFor();
      await expect.poll(() => page.locator('input[name="name"]').inputValue()).toBe("Thandi Nkosi-Botha");
      await shoot(page, "profile-afr-dark");

      await profile.changePassword(account.password, "new-password-1", "new-password-2");
      await expect.poll(() => profile.passwordCard().locator(".field-error").textContent()).toBe("Die wagwoorde stem nie ooreen nie.");
      await profile.changePassword("wrong-password-here", "new-password-1");
      await expect.poll(() => profile.passwordCard().locator(".field-error").textContent()).toBe("Daardie wagwoord is nie reg nie.");
      await profile.changeEmail("new-address@example.co.za", account.password);
      await expect.poll(() => profile.emailCard().getByTestId("email-change-sent").textContent()).toContain("new-address@example.co.za");
      await shoot(page, "profile-errors-afr-dark");

      const info = new BusinessInfoPage(page);
      await info.open();
      await info.fill({ tradingName: "Karoo Gimnasium" });
      await shoot(page, "business-info-afr-dark");

      const shell = new Shell(page);
      await shell.chooseTheme("light");
      await shoot(page, "business-info-afr-light");
      await profile.open();
      await shoot(page, "profile-afr-light");
      await shell.chooseLanguage("en");
      await shell.chooseTheme("dark");
      await info.open();
      await shoot(page, "business-info-en-dark");

      await shell.chooseLanguage("afr");
      await shell.signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");
      await page.goto("/auth/forgot");
      await page.getByTestId("forgot-page").waitFor();
      await shoot(page, "forgot-afr-dark");
      await page.goto("/auth/reset/some_token");
      await page.getByTestId("reset-page").waitFor();
      await shoot(page, "reset-afr-dark");
      await page.goto("/auth/2fa/backup");
      await page.getByTestId("backup-page").waitFor();
      await shoot(page, "backup-code-afr-dark");
      await shell.chooseLanguage("en");
    } finally {
      await browser.close();
    }
  });
});
