import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, type Session } from "./browser";
import { newAccount, signUpFresh } from "./flows";
import { LoginPage, SignupPage } from "./pages/AuthPages";
import { Shell } from "./pages/Shell";

describe("signing up, out and in", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowser();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("signs a new merchant up, out, and back in", async () => {
    const page = await session.newPage();
    const account = await signUpFresh(page, "auth");
    const shell = new Shell(page);
    await expect.poll(() => shell.merchantName().textContent()).toContain(account.businessName);
    await shoot(page, "home-en-light");

    await shell.signOut();
    await page.waitForURL((url) => url.pathname === "/auth/login" && url.search === "");
    const login = new LoginPage(page);
    await login.waitForIt();

    await login.signIn(account.email, "not-the-password");
    await expect.poll(() => login.error().textContent()).toContain("do not match");
    await shoot(page, "login-error-en-light");

    await login.signIn(account.email, account.password);
    await page.waitForURL((url) => url.pathname === "/");
    await shell.waitUntilLive();
  });

  it("shows sign-up errors beside the field", async () => {
    const fresh = await openBrowser();
    try {
      const page = await fresh.newPage();
      const signup = new SignupPage(page);
      await signup.open();
      await shoot(page, "signup-en-light");
      await signup.signUp({ ...newAccount("weak"), password: "short" });
      await expect.poll(() => signup.fieldError("Password").textContent()).toBe("Use at least 10 characters.");
      await shoot(page, "signup-error-en-light");
      const taken = newAccount("taken");
      await signup.signUp(taken);
      await page.waitForURL((url) => url.pathname === "/");
      await new Shell(page).signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");
      await signup.open();
      await signup.signUp(taken);
      await expect.poll(() => signup.fieldError("E-mail address").textContent()).toBe(
        "An account with this e-mail address already exists.",
      );
    } finally {
      await fresh.close();
    }
  });

  it("sends a signed-out visitor to sign in and back to where they were going", async () => {
    const fresh = await openBrowser();
    try {
      const page = await fresh.newPage();
      await page.goto("/customers");
      await page.waitForURL((url) => url.pathname === "/auth/login");
      expect(new URL(page.url()).search).toBe("?redirect=%2Fcustomers");
      await shoot(page, "login-en-light");

      const account = newAccount("guard");
      await new SignupPage(page).open();
      await new SignupPage(page).signUp(account);
      await page.waitForURL((url) => url.pathname === "/");
      await new Shell(page).signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");

      await page.goto("/customers");
      await page.waitForURL((url) => url.pathname === "/auth/login");
      await new LoginPage(page).signIn(account.email, account.password);
      await page.waitForURL((url) => url.pathname === "/customers");
      await page.getByTestId("customers-page").waitFor();

      // A signed-in visitor does not see the sign-in page.
      await page.goto("/auth/login");
      await page.waitForURL((url) => url.pathname === "/");
    } finally {
      await fresh.close();
    }
  });

  it("signs every tab out when one tab signs out", async () => {
    const fresh = await openBrowser();
    try {
      const tabA = await fresh.newPage();
      await signUpFresh(tabA, "tabs");
      const tabB = await fresh.newPage();
      await tabB.goto("/customers");
      await new Shell(tabB).waitUntilLive();
      await tabA.bringToFront();
      await new Shell(tabA).signOut();
      await tabA.waitForURL((url) => url.pathname === "/auth/login");
      // The server closes the other tab's socket; that tab then finds the session gone.
      await tabB.waitForURL((url) => url.pathname === "/auth/login");
      // Back to the same screen of the same business and mode after signing in again.
      const redirect = new URL(new URL(tabB.url()).searchParams.get("redirect") ?? "", tabB.url());
      expect(redirect.pathname).toBe("/customers");
      expect(redirect.searchParams.get("mode")).toBe("live");
      expect(redirect.searchParams.get("business")).toMatch(/\S/);
    } finally {
      await fresh.close();
    }
  });

  it("asks for blank sign-in fields before sending anything", async () => {
    // A browser of its own: the tests above leave this file's session signed in.
    const fresh = await openBrowser();
    const page = await fresh.newPage();
    const login = new LoginPage(page);
    await login.open();
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/auth/")) sent.push(request.url());
    });
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await login.fieldError("E-mail address").textContent()).toBe("This field is required.");
    expect(await login.fieldError("Password").textContent()).toBe("This field is required.");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("email");
    await shoot(page, "login-blank-en-light");

    // Typing into a field takes its mark off; spaces alone still count as blank.
    await page.getByLabel("E-mail address").fill("someone@example.co.za");
    await page.getByLabel("Password").fill("   ");
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await login.fieldError("E-mail address").count()).toBe(0);
    expect(await login.fieldError("Password").textContent()).toBe("This field is required.");
    expect(await login.error().count()).toBe(0);
    expect(sent).toEqual([]);
    await fresh.close();
  });

  it("says so when there were too many sign-in attempts", async () => {
    const fresh = await openBrowser();
    try {
      const page = await fresh.newPage();
      const account = await signUpFresh(page, "limit");
      await new Shell(page).signOut();
      const login = new LoginPage(page);
      await login.waitForIt();
      let message = "";
      for (let attempt = 0; attempt < 15 && !message.includes("Too many"); attempt += 1) {
        await login.signIn(account.email, `wrong-password-${attempt}`);
        // The server slows each failed sign-in down (up to 2 s), so wait longer than a poll's default.
        await expect.poll(() => login.error().count(), { timeout: 10_000 }).toBe(1);
        await page.getByRole("button", { name: "Sign in" }).waitFor();
        message = (await login.error().textContent()) ?? "";
      }
      expect(message).toBe("Too many sign-in attempts. Wait 15 minutes and try again, or reset your password, which lifts the lock on your account.");
      await shoot(page, "login-too-many-en-light");
    } finally {
      await fresh.close();
    }
  });
});
