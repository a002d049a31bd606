import { describe, expect, it } from "vitest";
import { openBrowser, shoot } from "./browser";
import { createRecord, debiCheckPayer, weeklyDebiCheck } from "./dashboardSeed";
import { joinTeam, signUpFresh } from "./flows";
import { HomeDashboard, TestMode } from "./pages/DashboardPages";
import { Shell } from "./pages/Shell";

describe("figures follow a teammate's change", () => {
  // Finance reads home's figures but not the payments behind them: the server tells them that
  // money moved, so their home follows without a reload.
  it("a Finance member's home shows the owner's new debit order without a reload", { timeout: 180_000 }, async () => {
    const owner = await openBrowser();
    const finance = await openBrowser();
    try {
      const ownerPage = await owner.newPage();
      await signUpFresh(ownerPage, "figures-owner");
      await new Shell(ownerPage).waitUntilLive();
      const { page: financePage } = await joinTeam(ownerPage, finance, "finance", "Lindiwe Khumalo");

      const financeHome = new HomeDashboard(financePage);
      await financeHome.open();
      await new TestMode(financePage).switchOn();
      await financeHome.waitForFigures();
      await expect.poll(() => financeHome.upcomingRows().count()).toBe(0);

      await new HomeDashboard(ownerPage).open();
      const ownerClock = new TestMode(ownerPage);
      await ownerClock.switchOn();
      const today = await ownerClock.today();
      const payer = await createRecord(ownerPage, "test", { t: "CreateCustomer", input: debiCheckPayer("Thandi Nkosi", "thandi@example.co.za") });
      await createRecord(ownerPage, "test", { t: "CreatePayment", input: weeklyDebiCheck(payer, today, "4000000001", 49_999) });

      await expect.poll(() => financeHome.upcomingRows().count(), { timeout: 5_000 }).toBe(1);
      await expect.poll(() => financeHome.upcomingRows().first().textContent()).toContain("Thandi Nkosi");
      await shoot(financePage, "live-figures-finance-home-en-light");
    } finally {
      await owner.close();
      await finance.close();
    }
  });

  // The payouts page reads the balance of the mode it is in: the switch shows the other mode's
  // figures at once, never the old mode's under the new mode's banner.
  it("switching mode on Payouts shows the other mode's balance at once", { timeout: 180_000 }, async () => {
    const session = await openBrowser();
    try {
      const page = await session.newPage();
      await signUpFresh(page, "figures-payouts");
      await new Shell(page).waitUntilLive();
      await page.goto("/account/payouts");
      await page.getByTestId("balance-available").waitFor();
      const liveBalance = await page.getByTestId("balance-available").textContent();
      const clock = new TestMode(page);
      await clock.switchOn();
      const payer = await createRecord(page, "test", { t: "CreateCustomer", input: debiCheckPayer("Thandi Nkosi", "thandi@example.co.za") });
      await createRecord(page, "test", { t: "CreatePayment", input: weeklyDebiCheck(payer, await clock.today(), "4000000001", 49_999) });
      await clock.advance("month");
      await clock.waitUntilPlayed();
      // The month's paid debits reach the test balance on the open page.
      await expect.poll(() => page.getByTestId("balance-available").textContent(), { timeout: 10_000 }).not.toBe(liveBalance);
      const testBalance = await page.getByTestId("balance-available").textContent();
      await shoot(page, "live-figures-payouts-test-en-light");

      await page.getByTestId("mode-switch").click();
      await expect.poll(() => page.getByTestId("test-strip").count()).toBe(0);
      await expect.poll(() => page.getByTestId("balance-available").textContent()).toBe(liveBalance);
      expect(liveBalance).not.toBe(testBalance);
    } finally {
      await session.close();
    }
  });
});
