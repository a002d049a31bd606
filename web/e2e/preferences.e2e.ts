import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, type Session } from "./browser";
import { newAccount, signUpFresh } from "./flows";
import { waitForMailLink } from "./mail";
import { CustomerDetailPage, CustomersListPage } from "./pages/CustomerPages";
import { ProfilePage } from "./pages/ProfilePage";
import { Shell } from "./pages/Shell";

describe("language and colour mode", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowser();
    const page = await session.newPage();
    await signUpFresh(page, "prefs");
    const list = new CustomersListPage(page);
    await list.open();
    await list.create({ name: "Anrich Botha", email: "anrich@example.co.za", city: "Paarl", postalCode: "7646" });
    await new CustomerDetailPage(page).waitForIt();
    await page.close();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("switches to Afrikaans, keeps it in a cookie, and survives a reload", async () => {
    const page = await session.newPage();
    await page.goto("/customers");
    const shell = new Shell(page);
    await shell.waitUntilLive();
    await shell.chooseLanguage("afr");
    await page.getByRole("heading", { name: "Kliënte" }).waitFor();
    const cookie = (await session.context.cookies()).find((entry) => entry.name === "locale");
    expect(cookie?.value).toBe("afr");
    expect(cookie?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 360 * 24 * 3600);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("af");
    await new CustomersListPage(page).row("Anrich Botha").waitFor();
    await shoot(page, "customers-list-afr-light");

    // Signed in, the header's choice is saved on the profile too (the e-mails' language).
    const profile = new ProfilePage(page);
    await profile.open();
    await expect.poll(() => profile.savedLanguage().inputValue()).toBe("afr");

    await page.goto("/customers");
    await page.reload();
    await page.getByRole("heading", { name: "Kliënte" }).waitFor();
    await page.goto("/no/such/page");
    await page.getByText("Bladsy nie gevind nie: /no/such/page").waitFor();
    await shoot(page, "not-found-afr-light");

    await page.goto("/customers");
    await shell.chooseLanguage("en");
    await page.getByRole("heading", { name: "Customers" }).waitFor();
    await page.goto("/no/such/page");
    await page.getByText("Page not found: /no/such/page").waitFor();
    await profile.open();
    await expect.poll(() => profile.savedLanguage().inputValue()).toBe("en");
    await page.close();
  });

  it("switches to dark and keeps it in local storage", async () => {
    const page = await session.newPage();
    await page.goto("/customers");
    const shell = new Shell(page);
    await shell.waitUntilLive();
    await shell.chooseTheme("dark");
    await expect.poll(() => shell.htmlHasDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    await new CustomersListPage(page).row("Anrich Botha").waitFor();
    await shoot(page, "customers-list-en-dark");

    await page.reload();
    await expect.poll(() => shell.htmlHasDark()).toBe(true);
    await new CustomersListPage(page).row("Anrich Botha").getByRole("link").click();
    await new CustomerDetailPage(page).waitForIt();
    await shoot(page, "customer-detail-en-dark");

    await shell.chooseLanguage("afr");
    await page.getByRole("button", { name: "Wysig" }).waitFor();
    await shoot(page, "customer-detail-afr-dark");
    await page.getByTestId("edit-customer").click();
    await page.getByTestId("edit-customer-dialog").waitFor();
    await shoot(page, "customer-edit-afr-dark");
    await page.keyboard.press("Escape");

    await shell.chooseLanguage("en");
    await shell.chooseTheme("light");
    await expect.poll(() => shell.htmlHasDark()).toBe(false);
    await page.close();
  });

  it("gives a browser that asks for af-ZA the Afrikaans interface", async () => {
    const afrikaans = await openBrowser({ locale: "af-ZA", colorScheme: "dark" });
    try {
      const page = await afrikaans.newPage();
      await page.goto("/auth/login");
      await page.getByRole("heading", { name: "Meld aan by jou rekening" }).waitFor();
      // No stored choice: the system colour scheme decides.
      await expect.poll(() => new Shell(page).htmlHasDark()).toBe(true);
      await shoot(page, "login-afr-dark");
      await page.goto("/auth/signup");
      await page.getByRole("heading", { name: "Skep jou rekening" }).waitFor();
      await shoot(page, "signup-afr-dark");

      // Signing up there makes an Afrikaans account: its profile and its mail say so.
      const account = newAccount("afr-signup");
      await page.locator('input[name="name"]').fill(account.name);
      await page.locator('input[name="businessName"]').fill(account.businessName);
      await page.locator('input[name="email"]').fill(account.email);
      await page.locator('input[name="password"]').fill(account.password);
      await page.getByRole("button", { name: "Skep rekening" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await new Shell(page).waitUntilLive();
      const mail = await waitForMailLink(account.email);
      expect(mail.subject).toBe("Bevestig jou e-posadres vir Paydesk");
      const profile = new ProfilePage(page);
      await profile.open();
      expect(await profile.savedLanguage().inputValue()).toBe("afr");
    } finally {
      await afrikaans.close();
    }
  });
});
