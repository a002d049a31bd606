import { describe, expect, it } from "vitest";
import { openBrowser, shoot, shootPart, uniqueEmail } from "./browser";
import { signUpFresh } from "./flows";
import { waitForMailLink } from "./mail";
import { LoginPage } from "./pages/AuthPages";
import { CustomerDetailPage, CustomersListPage } from "./pages/CustomerPages";
import { HistoryListPage } from "./pages/HistoryPages";
import { Shell } from "./pages/Shell";

describe("custom roles", () => {
  // Two people in two browsers: the owner defines a role of their own, gives it to a member, and
  // changing what the role may do reaches the member's open tab without a reload. The history
  // names who did each step, the member's sign-ins included, live.
  it("defines a role, assigns it, and its new grants reach the member's open tab", { timeout: 180_000 }, async () => {
    const owner = await openBrowser();
    const member = await openBrowser();
    const stranger = await openBrowser();
    try {
      const ownerPage = await owner.newPage();
      const ownerAccount = await signUpFresh(ownerPage, "roles-owner");
      const customers = new CustomersListPage(ownerPage);
      await customers.open();
      await customers.create({ name: "Sipho Dlamini", email: "sipho@example.co.za" });
      await ownerPage.waitForURL((url) => url.pathname.startsWith("/customers/cus_"));
      await new CustomerDetailPage(ownerPage).waitForIt();
      const customerPath = new URL(ownerPage.url()).pathname;

      // The member joins from an invite, as Operations.
      await ownerPage.goto("/account/teams");
      await ownerPage.getByTestId("members-table").waitFor();
      await ownerPage.getByTestId("invite-member").click();
      const email = uniqueEmail("roles-member");
      await ownerPage.getByTestId("invite-email").fill(email);
      await ownerPage.getByTestId("invite-role").selectOption("operations");
      await ownerPage.getByTestId("send-invite").click();
      await ownerPage.getByTestId(`invite-${email}`).waitFor();
      const mail = await waitForMailLink(email);
      const page = await member.newPage();
      await page.goto(mail.link);
      await page.getByTestId("invite-summary").waitFor();
      await page.getByTestId("invite-name").fill("Thandi Dube");
      await page.getByTestId("invite-password").fill("correct-horse-battery-staple");
      await page.getByTestId("invite-sign-up").click();
      await page.waitForURL((url) => url.pathname === "/");
      await new Shell(page).waitUntilLive();
      await page.goto(customerPath);
      await page.getByTestId("edit-customer").waitFor();

      // The owner defines "Customer readers": customers read, nothing else.
      await ownerPage.getByTestId("roles-section").waitFor();
      await ownerPage.getByTestId("no-roles").waitFor();
      await ownerPage.getByTestId("new-role").click();
      await ownerPage.getByTestId("role-editor").waitFor();
      await ownerPage.getByTestId("role-name").fill("Customer readers");
      // Each section is a radio group named by its section.
      const customersGroup = ownerPage.getByRole("group", { name: "Customers" });
      await customersGroup.getByRole("radio", { name: "Read", exact: true }).check();
      await shoot(ownerPage, "roles-editor-en-light");
      await ownerPage.getByTestId("save-role-matrix").click();
      const roleRow = ownerPage.getByTestId("role-Customer readers");
      await roleRow.waitFor();
      await shoot(ownerPage, "roles-en-light");

      // It is assigned from the member's page.
      await ownerPage.getByTestId(`member-${email}`).getByRole("link").click();
      await ownerPage.getByTestId("member-page").waitFor();
      await ownerPage.getByTestId("member-new-role").selectOption({ label: "Customer readers" });
      await ownerPage.getByTestId("save-role").click();
      await expect.poll(() => ownerPage.getByTestId("member-role").textContent()).toBe("Customer readers");

      // No reload: the member's tab says its new role and refuses the edit, and still shows the customer.
      await expect.poll(() => page.getByTestId("access-notice-text").textContent()).toBe("Your role is now Customer readers.");
      await expect.poll(() => page.getByTestId("edit-customer").getAttribute("aria-disabled")).toBe("true");
      expect(await page.getByTestId("edit-customer").getAttribute("title")).toBe("Your role (Customer readers) can't change customers.");
      await page.getByTestId("customer-detail").waitFor();
      // Only what the role includes: no mandates, payments or transactions under the customer,
      // and a home page that says the overview is not theirs rather than failing.
      await expect.poll(() => page.getByTestId("customer-mandates").count()).toBe(0);
      expect(await page.getByTestId("customer-transactions").count()).toBe(0);
      await expect.poll(() => page.getByTestId("add-bank-account").getAttribute("aria-disabled")).toBe("true");
      await page.goto("/");
      await page.getByTestId("home-no-access").waitFor();
      expect(await page.getByTestId("home-error").count()).toBe(0);
      await page.goto(customerPath);
      await page.getByTestId("customer-detail").waitFor();

      // The member's recent activity on their page: their sign-in, linking to the entry.
      const activity = ownerPage.getByTestId("member-activity-entry");
      await activity.filter({ hasText: "Signed in" }).first().waitFor();
      await shoot(ownerPage, "roles-member-en-light");

      // Changing the role's grants reaches the member's open tab at once: customers write
      // brings the edit button back.
      await ownerPage.goto("/account/teams");
      await roleRow.getByTestId("edit-role").click();
      await ownerPage.getByTestId("role-editor").waitFor();
      await ownerPage.getByRole("group", { name: "Customers" }).getByRole("radio", { name: "Read and change" }).check();
      await ownerPage.getByTestId("save-role-matrix").click();
      await ownerPage.getByTestId("role-editor").waitFor({ state: "detached" });
      await page.locator('[data-testid="edit-customer"]:not([aria-disabled])').waitFor();
      await expect.poll(() => page.getByTestId("access-notice-text").textContent()).toBe("What your role (Customer readers) may do has changed.");

      // A role someone holds is not deleted; the refusal says why.
      await roleRow.getByTestId("delete-role").click();
      await ownerPage.getByTestId("delete-role-dialog").waitFor();
      await ownerPage.getByTestId("confirm-action").click();
      await ownerPage.getByTestId("delete-role-dialog").getByText("Members or open invites still have this role").waitFor();
      await ownerPage.keyboard.press("Escape");

      // The history, open on the owner's screen, gets a failed sign-in of the member live (the
      // address and browser, never the password), then shows every step with the right person.
      const history = new HistoryListPage(ownerPage);
      await history.open();
      await new Shell(ownerPage).waitUntilLive();
      const strangerPage = await stranger.newPage();
      const login = new LoginPage(strangerPage);
      await login.open();
      await login.signIn(email, "not-the-password-9");
      await login.error().waitFor();
      const failed = history.row("Account · Sign-in failed");
      await failed.waitFor();
      expect(await failed.getByTestId("history-who").textContent()).toBe("Thandi Dube");
      const who = (what: string) => history.row(what).first().getByTestId("history-who").textContent();
      expect(await who("Role · Created")).toBe(ownerAccount.name);
      expect(await who("Role · Updated")).toBe(ownerAccount.name);
      expect(await who("Account · Signed in")).toBeTruthy();
      await history.filterByPerson("Thandi Dube");
      await history.row("Account · Signed in").first().waitFor();
      await expect.poll(() => history.row("Role · Created").count()).toBe(0);
      await shoot(ownerPage, "roles-history-en-light");

      // The same screens in Afrikaans and dark.
      await owner.context.addCookies([{ name: "locale", value: "afr", url: owner.baseURL }]);
      await ownerPage.emulateMedia({ colorScheme: "dark" });
      await ownerPage.goto("/account/teams");
      await roleRow.waitFor();
      await shoot(ownerPage, "roles-afr-dark");
      await roleRow.getByTestId("edit-role").click();
      await ownerPage.getByTestId("role-editor").waitFor();
      await shootPart(ownerPage.getByTestId("role-editor"), "roles-editor-afr-dark");
      await ownerPage.keyboard.press("Escape");
      await ownerPage.getByTestId(`member-${email}`).getByRole("link").click();
      await ownerPage.getByTestId("member-activity-entry").first().waitFor();
      await shoot(ownerPage, "roles-member-afr-dark");
      await ownerPage.emulateMedia({ colorScheme: "light" });
      await ownerPage.goto("/account/teams");
      await roleRow.waitFor();
      await shoot(ownerPage, "roles-afr-light");
      await owner.context.addCookies([{ name: "locale", value: "en", url: owner.baseURL }]);
      await ownerPage.emulateMedia({ colorScheme: "dark" });
      await ownerPage.goto("/account/teams");
      await roleRow.waitFor();
      await shoot(ownerPage, "roles-en-dark");
    } finally {
      await stranger.close();
      await member.close();
      await owner.close();
    }
  });
});
