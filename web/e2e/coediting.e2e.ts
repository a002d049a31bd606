import { describe, expect, it } from "vitest";
import { openBrowser, shoot } from "./browser";
import { joinTeam, signUpFresh } from "./flows";
import { CustomerDetailPage, CustomersListPage } from "./pages/CustomerPages";

/**
 * Both open the form at the same version; the owner saves first. The member's open form says at
 * once who saved which field, before they press Save; their save is then refused.
 */
async function conflictingEdits(owner: CustomerDetailPage, member: CustomerDetailPage, mine: string, theirs: string, shot: () => Promise<void>) {
  await owner.startEdit({ city: theirs });
  await member.startEdit({ city: mine, cellphone: "0821234567" });
  await owner.editingToo().waitFor();
  await member.editingToo().waitFor();
  await shot();
  await owner.saveEdit();
  await owner.editDialog().waitFor({ state: "detached" });
  await expect.poll(() => member.savedMeanwhile().textContent()).toMatch(/Thandi Nkosi .*(City|Stad)/);
  await member.saveEdit();
  await member.conflict().waitFor();
  await expect.poll(() => member.conflictLead().textContent()).toContain("Thandi Nkosi");
}

describe("co-editing", () => {
  // Two people in two browsers on the same customer: each sees the other, both edit, and the
  // second save is not written over the first but shown as a conflict to resolve.
  it("shows who else is on the record and resolves the second save's conflict", { timeout: 180_000 }, async () => {
    const owner = await openBrowser();
    const invitee = await openBrowser();
    try {
      const ownerPage = await owner.newPage();
      await signUpFresh(ownerPage, "coedit-owner");
      const customers = new CustomersListPage(ownerPage);
      await customers.open();
      await customers.create({ name: "Sipho Dlamini", email: "sipho@example.co.za" });
      await ownerPage.waitForURL((url) => url.pathname.startsWith("/customers/cus_"));
      const customerPath = new URL(ownerPage.url()).pathname;

      const { page } = await joinTeam(ownerPage, invitee, "admin", "Pieter Botha");
      await page.goto(customerPath);
      await ownerPage.goto(customerPath);
      const ownerDetail = new CustomerDetailPage(ownerPage);
      const memberDetail = new CustomerDetailPage(page);
      await ownerDetail.waitForIt();
      await memberDetail.waitForIt();

      // Each sees the other on the record, in the page header.
      await expect.poll(() => ownerPage.getByTestId("on-this-page").textContent()).toContain("Pieter Botha");
      await expect.poll(() => page.getByTestId("on-this-page").count()).toBe(1);
      await shoot(ownerPage, "coedit-presence-en-light");
      // Lists show it too: the member on the customers list sees nobody until the owner comes.
      await page.goto("/customers");
      await page.getByTestId("customers-page").waitFor();
      await ownerPage.goto("/customers");
      await expect.poll(() => page.getByTestId("on-this-page").count()).toBe(1);
      await shoot(page, "coedit-list-presence-en-light");
      await page.goto(customerPath);
      await ownerPage.goto(customerPath);
      await memberDetail.waitForIt();
      await ownerDetail.waitForIt();

      await conflictingEdits(ownerDetail, memberDetail, "Paarl", "Stellenbosch", () => shoot(page, "coedit-both-editing-en-light"));
      await expect.poll(() => page.getByTestId("conflict-city-theirs").locator("..").textContent()).toContain("Stellenbosch");
      // The cellphone only the member changed is no conflict.
      expect(await page.getByTestId("conflict-cellphone").count()).toBe(0);
      await shoot(page, "coedit-conflict-en-light");
      // The owner's save stands until the member chooses.
      await ownerPage.getByText("Stellenbosch").waitFor();
      await page.getByTestId("conflict-city-yours").check();
      await page.getByTestId("conflict-save").click();
      await memberDetail.editDialog().waitFor({ state: "detached" });
      await ownerPage.getByText("Paarl").waitFor();
      await ownerPage.getByText("082 123 4567").waitFor();

      // Again in Afrikaans and dark for the member, light for the owner: choosing theirs.
      await invitee.context.addCookies([{ name: "locale", value: "afr", url: invitee.baseURL }]);
      await page.emulateMedia({ colorScheme: "dark" });
      await page.goto(customerPath);
      await memberDetail.waitForIt();
      await expect.poll(() => page.getByTestId("on-this-page").count()).toBe(1);
      await shoot(page, "coedit-presence-afr-dark");
      await conflictingEdits(ownerDetail, memberDetail, "Worcester", "George", () => shoot(page, "coedit-both-editing-afr-dark"));
      await shoot(page, "coedit-conflict-afr-dark");
      await page.getByTestId("conflict-city-theirs").check();
      await page.getByTestId("conflict-save").click();
      await memberDetail.editDialog().waitFor({ state: "detached" });
      await page.getByText("George").waitFor();

      // Only fields both changed are conflicts: the owner changes the city, the member the
      // e-mail address; the member's save keeps both, with no choice to make.
      await ownerDetail.startEdit({ city: "Knysna" });
      await memberDetail.startEdit({ email: "sipho.d@example.co.za" });
      await ownerDetail.saveEdit();
      await ownerDetail.editDialog().waitFor({ state: "detached" });
      await expect.poll(() => page.getByTestId("saved-meanwhile").textContent()).toContain("Thandi Nkosi");
      await shoot(page, "coedit-saved-meanwhile-afr-dark");
      await memberDetail.saveEdit();
      await memberDetail.editDialog().waitFor({ state: "detached" });
      expect(await page.getByTestId("conflict").count()).toBe(0);
      await ownerPage.locator("dd", { hasText: "sipho.d@example.co.za" }).waitFor();
      await ownerPage.locator("dd", { hasText: "Knysna" }).waitFor();

      // The remaining two looks: the owner in dark English, the member in light Afrikaans.
      await ownerPage.emulateMedia({ colorScheme: "dark" });
      await page.emulateMedia({ colorScheme: "light" });
      await ownerDetail.startEdit({});
      await expect.poll(() => page.getByTestId("on-this-page").textContent()).toContain("wysig");
      await shoot(ownerPage, "coedit-editing-en-dark");
      await shoot(page, "coedit-editing-afr-light");
      await ownerPage.keyboard.press("Escape");
      await expect.poll(() => page.getByTestId("on-this-page").textContent()).not.toContain("wysig");
    } finally {
      await invitee.close();
      await owner.close();
    }
  });
});
