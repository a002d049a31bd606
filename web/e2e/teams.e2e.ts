import { describe, expect, it } from "vitest";
import { openBrowser, shoot, uniqueEmail } from "./browser";
import { signUpFresh } from "./flows";
import { waitForMailLink } from "./mail";
import { LoginPage } from "./pages/AuthPages";
import { CustomerDetailPage, CustomersListPage } from "./pages/CustomerPages";
import { Shell } from "./pages/Shell";

describe("team members and invites", () => {
  // Two people in two browsers: the owner invites, the invitee signs up from the mail in the
  // outbox, and a demotion reaches the invitee's open tab without a reload.
  it("invites by e-mail, and a demotion reaches the member's open tab, which says so and refuses its edit buttons", { timeout: 150_000 }, async () => {
    const owner = await openBrowser();
    const invitee = await openBrowser();
    try {
      const ownerPage = await owner.newPage();
      const ownerAccount = await signUpFresh(ownerPage, "team-owner");
      const customers = new CustomersListPage(ownerPage);
      await customers.open();
      await customers.create({ name: "Sipho Dlamini", email: "sipho@example.co.za" });
      await ownerPage.waitForURL((url) => url.pathname.startsWith("/customers/cus_"));
      await new CustomerDetailPage(ownerPage).waitForIt();
      const customerPath = new URL(ownerPage.url()).pathname;

      await ownerPage.goto("/account/teams");
      await ownerPage.getByTestId("members-table").waitFor();
      await ownerPage.getByTestId("invite-member").click();
      const email = uniqueEmail("team-invitee");
      await ownerPage.getByTestId("invite-email").fill(email);
      await ownerPage.getByTestId("invite-role").selectOption("operations");
      await shoot(ownerPage, "team-invite-dialog-en-light");
      await ownerPage.getByTestId("send-invite").click();
      await ownerPage.getByTestId(`invite-${email}`).waitFor();
      await shoot(ownerPage, "teams-en-light");

      const mail = await waitForMailLink(email);
      expect(mail.link).toContain("/account/teams/invite/");
      const page = await invitee.newPage();
      await page.goto(mail.link);
      await page.getByTestId("invite-summary").waitFor();
      expect(await page.getByTestId("invite-fixed-email").inputValue()).toBe(email);
      await shoot(page, "team-invite-signup-en-light");
      await page.getByTestId("invite-name").fill("Thandi Dube");
      await page.getByTestId("invite-password").fill("correct-horse-battery-staple");
      await page.getByTestId("invite-sign-up").click();
      await page.waitForURL((url) => url.pathname === "/");
      await new Shell(page).waitUntilLive();

      await page.goto(customerPath);
      await page.getByTestId("edit-customer").waitFor();

      // The owner's open team page shows the new member live, and opens their page.
      const row = ownerPage.getByTestId(`member-${email}`);
      await row.waitFor();
      await expect.poll(() => ownerPage.getByTestId(`invite-${email}`).count()).toBe(0);
      await row.getByRole("link").click();
      await ownerPage.getByTestId("member-page").waitFor();
      await shoot(ownerPage, "team-member-en-light");
      await ownerPage.getByTestId("member-new-role").selectOption("viewer");
      await ownerPage.getByTestId("save-role").click();
      await expect.poll(() => ownerPage.getByTestId("member-role").textContent()).toBe("Viewer");

      // No reload: the invitee's tab is told its new role over the socket, says so, and refuses the edit.
      await expect.poll(() => page.getByTestId("access-notice-text").textContent()).toBe("Your role is now Viewer.");
      await expect.poll(() => page.getByTestId("edit-customer").getAttribute("aria-disabled")).toBe("true");
      await page.getByTestId("customer-detail").waitFor();

      // A viewer reads the team but not API tokens: they see the owner online, and where only
      // on screens they may open themselves. The owner moves within one tab (one socket), so
      // nothing but what the viewer is told changes.
      await page.goto("/account/teams");
      const ownerOnline = page.getByTestId(`member-${ownerAccount.email}`).getByTestId("member-online");
      await ownerPage.goto("/customers");
      await expect.poll(() => ownerOnline.textContent()).toBe("Online now on Customers");
      await ownerPage.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "API tokens", exact: true }).click();
      await ownerPage.getByTestId("api-tokens-page").waitFor();
      await expect.poll(() => ownerOnline.textContent()).toBe("Online now");

      // The same screens in Afrikaans and dark.
      await owner.context.addCookies([{ name: "locale", value: "afr", url: owner.baseURL }]);
      await ownerPage.emulateMedia({ colorScheme: "dark" });
      await ownerPage.goto("/account/teams");
      await ownerPage.getByTestId(`member-${email}`).waitFor();
      await shoot(ownerPage, "teams-afr-dark");
      await ownerPage.getByTestId("invite-member").click();
      await ownerPage.getByTestId("invite-dialog").waitFor();
      await shoot(ownerPage, "team-invite-dialog-afr-dark");
      await ownerPage.keyboard.press("Escape");
      await ownerPage.getByTestId(`member-${email}`).getByRole("link").click();
      await ownerPage.getByTestId("member-page").waitFor();
      await shoot(ownerPage, "team-member-afr-dark");
      await ownerPage.emulateMedia({ colorScheme: "light" });
      await ownerPage.goto("/account/teams");
      await ownerPage.getByTestId(`member-${email}`).waitFor();
      await shoot(ownerPage, "teams-afr-light");

      // Removed from the only team they are on, the member's open tab says so and stops
      // reconnecting: no reload, and nothing of the business stays on screen.
      await ownerPage.getByTestId(`member-${email}`).getByRole("link").click();
      await ownerPage.getByTestId("remove-member").click();
      await ownerPage.getByTestId("remove-dialog").getByTestId("confirm-action").click();
      await ownerPage.waitForURL((url) => url.pathname === "/account/teams");
      await page.getByTestId("no-team").waitFor();
      expect(await page.getByTestId("customer-detail").count()).toBe(0);
      expect(await page.getByTestId("connection-state").getAttribute("data-state")).toBe("noTeam");
      await shoot(page, "no-team-en-light");
      await page.getByTestId("no-team-sign-out").click();
      await page.waitForURL((url) => url.pathname === "/auth/login");
    } finally {
      await invitee.close();
      await owner.close();
    }
  });

  // Someone who has an account of their own opens the invite signed out: the invite sends them to
  // sign in, and signing in brings them back to it to accept.
  it("brings an invited person with an account back to the invite after signing in", { timeout: 150_000 }, async () => {
    const owner = await openBrowser();
    const invitee = await openBrowser();
    try {
      // The invitee first, so the mails of their own sign-up are out before the invite.
      const page = await invitee.newPage();
      const existing = await signUpFresh(page, "invite-existing");
      await page.getByTestId("verify-email-banner").waitFor();
      await new Shell(page).signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");

      const ownerPage = await owner.newPage();
      const ownerAccount = await signUpFresh(ownerPage, "invite-owner");
      await ownerPage.goto("/account/teams");
      await ownerPage.getByTestId("members-table").waitFor();
      await ownerPage.getByTestId("invite-member").click();
      await ownerPage.getByTestId("invite-email").fill(existing.email);
      await ownerPage.getByTestId("invite-role").selectOption("operations");
      const invitedAt = Date.now();
      await ownerPage.getByTestId("send-invite").click();
      await ownerPage.getByTestId(`invite-${existing.email}`).waitFor();

      const mail = await waitForMailLink(existing.email, { after: invitedAt - 1_000 });
      expect(mail.link).toContain("/account/teams/invite/");
      const invitePath = new URL(mail.link).pathname;
      await page.goto(mail.link);
      await page.getByTestId("invite-summary").waitFor();
      await shoot(page, "team-invite-existing-signed-out-en-light");
      await page.getByTestId("invite-sign-in").click();
      await page.waitForURL((url) => url.pathname === "/auth/login");
      expect(new URL(page.url()).searchParams.get("redirect")).toBe(invitePath);

      await new LoginPage(page).signIn(existing.email, existing.password);
      await page.waitForURL((url) => url.pathname === invitePath);
      await page.getByTestId("accept-invite").click();
      await page.waitForURL((url) => url.pathname === "/");
      const shell = new Shell(page);
      await shell.waitUntilLive();
      await expect.poll(() => shell.merchantName().textContent()).toContain(ownerAccount.businessName);
      // The invite reached their address: nobody asks them to verify it any more.
      await expect.poll(() => page.getByTestId("verify-email-banner").count()).toBe(0);

      await ownerPage.getByTestId(`member-${existing.email}`).waitFor();
      await expect.poll(() => ownerPage.getByTestId(`invite-${existing.email}`).count()).toBe(0);

      // An invite opened while signed in with another address offers to sign out right there.
      const other = uniqueEmail("invite-other");
      const otherAt = Date.now();
      await ownerPage.getByTestId("invite-member").click();
      await ownerPage.getByTestId("invite-email").fill(other);
      await ownerPage.getByTestId("invite-role").selectOption("viewer");
      await ownerPage.getByTestId("send-invite").click();
      const row = ownerPage.getByTestId(`invite-${other}`);
      await row.waitFor();
      const otherLink = (await waitForMailLink(other, { after: otherAt - 1_000 })).link;
      const wrong = await owner.newPage();
      await wrong.goto(otherLink);
      await wrong.getByTestId("invite-wrong-address").waitFor();
      await shoot(wrong, "team-invite-wrong-address-en-light");

      // Revoking asks first; going back revokes nothing.
      await ownerPage.bringToFront();
      await row.getByTestId("revoke-invite").click();
      const confirm = ownerPage.getByTestId("revoke-invite-dialog");
      await confirm.getByText(`The link sent to ${other} stops working at once.`, { exact: false }).waitFor();
      await shoot(ownerPage, "team-revoke-invite-en-light");
      await confirm.getByRole("button", { name: "Go back" }).click();
      await confirm.waitFor({ state: "detached" });
      expect(await row.count()).toBe(1);
      await row.getByTestId("revoke-invite").click();
      await confirm.getByTestId("confirm-action").click();
      await row.waitFor({ state: "detached" });

      // Signing out from the invite stays on it, as a guest.
      await wrong.bringToFront();
      await wrong.getByTestId("invite-sign-out").click();
      await wrong.getByTestId("invite-wrong-address").waitFor({ state: "detached" });
      expect(new URL(wrong.url()).pathname).toBe(new URL(otherLink).pathname);
      const signedIn = await wrong.evaluate(async () => ((await (await fetch("/api/auth/session")).json()) as { user?: unknown }).user ?? null);
      expect(signedIn).toBeNull();
    } finally {
      await invitee.close();
      await owner.close();
    }
  });
});
