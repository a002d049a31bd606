import { readFileSync } from "node:fs";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, shootPart, type Session } from "./browser";
import { createRecord, debiCheckPayer, weeklyDebiCheck } from "./dashboardSeed";
import { signUpFresh } from "./flows";
import { clippedText } from "./pages/Clipping";
import { HomeDashboard, TestMode, TransactionDetail, TransactionsList } from "./pages/DashboardPages";
import { Shell } from "./pages/Shell";

const CSV_HEADER = [
  "Transaction ID",
  "Action date",
  "Status",
  "Unpaid code",
  "Amount (ZAR)",
  "Fee (ZAR)",
  "Net (ZAR)",
  "Paid on",
  "Method",
  "Customer",
  "Reference",
  "Bank",
  "Account last digits",
  "Attempt",
];

describe("home dashboard, test clock and transactions", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowser();
    const page = await session.newPage();
    await signUpFresh(page, "dashboard");
    await page.close();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("plays a month of collections into another tab's home without a reload, then exports the paid ones", async () => {
    const tabA = await session.newPage();
    const homeA = new HomeDashboard(tabA);
    await homeA.open();
    await new Shell(tabA).waitUntilLive();
    const testA = new TestMode(tabA);
    await testA.switchOn();
    const today = await testA.today();
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // Two payers on the simulated bank: one whose debits are paid, one whose come back unpaid 02.
    const paidPayer = await createRecord(tabA, "test", { t: "CreateCustomer", input: debiCheckPayer("Thandi Nkosi", "thandi@example.co.za") });
    const unpaidPayer = await createRecord(tabA, "test", { t: "CreateCustomer", input: debiCheckPayer("Pieter Botha", "pieter@example.co.za") });
    await createRecord(tabA, "test", { t: "CreatePayment", input: weeklyDebiCheck(paidPayer, today, "4000000001", 49_999) });
    await createRecord(tabA, "test", { t: "CreatePayment", input: weeklyDebiCheck(unpaidPayer, today, "4000000002", 25_000) });

    const tabB = await session.newPage();
    const homeB = new HomeDashboard(tabB);
    await homeB.open();
    await new Shell(tabB).waitUntilLive();
    await new TestMode(tabB).switchOn();
    await homeB.waitForFigures();
    await expect.poll(() => homeB.upcomingRows().count()).toBeGreaterThan(0);
    await shoot(tabB, "home-before-en-light");

    // A person acts in the tab in front; tab B is never reloaded.
    await tabA.bringToFront();
    await testA.advance("month");
    await testA.status().filter({ hasText: "Playing out" }).waitFor();
    await shootPart(testA.strip(), "test-clock-playing-en-light");
    await testA.waitUntilPlayed();

    // What a month of play must change, on whatever date it starts: the test date, and the
    // feed of both payers' debits. This month's figures and its unpaid warning need not change
    // (a month played from 2 December ends in January, which has settled nothing by its 2nd),
    // so they are held to what a tab opened now reads, the server's own figures.
    await tabB.bringToFront();
    await expect.poll(() => new TestMode(tabB).today(), { timeout: 30_000 }).not.toBe(today);
    await expect.poll(() => homeB.feedRows().filter({ hasText: "Thandi Nkosi" }).count()).toBeGreaterThan(0);
    await expect.poll(() => homeB.feedRows().filter({ hasText: "Pieter Botha" }).count()).toBeGreaterThan(0);
    const tabC = await session.newPage();
    const homeC = new HomeDashboard(tabC);
    await homeC.open();
    await new Shell(tabC).waitUntilLive();
    await new TestMode(tabC).switchOn();
    await homeC.waitForFigures();
    for (const name of ["collected-month", "success-rate", "unpaid-ratio"] as const) {
      const expected = await homeC.figure(name).textContent();
      await expect.poll(() => homeB.figure(name).textContent()).toBe(expected);
    }
    const warned = await tabC.getByTestId("warning-unpaid").count();
    expect(await tabB.getByTestId("warning-unpaid").count()).toBe(warned);
    await tabC.close();
    await shoot(tabB, "home-after-en-light");

    // The paid debits only, from an address that can be bookmarked.
    const list = new TransactionsList(tabB);
    await list.openFromNav();
    await expect.poll(() => list.rows().count()).toBeGreaterThan(0);
    await list.filterStatus("paid");
    await tabB.waitForURL((url) => url.searchParams.get("status") === "paid");
    await expect.poll(async () => [...new Set(await list.statuses().evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-status"))))]).toEqual(["paid"]);
    const shown = await list.rows().count();
    await shoot(tabB, "transactions-paid-en-light");

    const download = await list.exportCsv();
    expect(download.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), "utf8").replace(/^\ufeff/, "");
    const [header, ...rows] = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data;
    expect(header).toEqual(CSV_HEADER);
    expect(rows).toHaveLength(shown);
    for (const row of rows) {
      expect(row[2]).toBe("Paid");
      expect(row[4]).toBe("499.99");
      // Fee and net add up to the amount, and the day the bank paid is on or after the action date.
      expect(Number(row[5])).toBeGreaterThan(0);
      expect(Math.round((Number(row[5]) + Number(row[6])) * 100)).toBe(49_999);
      expect(row[7]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(row[7] >= row[1]).toBe(true);
      expect(row[8]).toBe("DebiCheck");
      expect(row[9]).toBe("Thandi Nkosi");
      expect(row[11]).toBe("Capitec");
      expect(row[12]).toBe("0001");
    }
    await list.exportOutcome().waitFor();

    // The bookmark opens the same view; a reload stays on test data.
    const bookmark = tabB.url();
    await tabB.goto(bookmark);
    await new Shell(tabB).waitUntilLive();
    await new TestMode(tabB).strip().waitFor();
    expect(await tabB.getByTestId("filter-status").inputValue()).toBe("paid");
    await expect.poll(() => list.rows().count()).toBe(shown);

    // An unpaid debit's detail: the code, its meaning and the history.
    await list.filterStatus("unpaid");
    await expect.poll(() => list.statuses().first().getAttribute("data-status")).toBe("unpaid");
    await list.rows().first().getByRole("link").click();
    const detail = new TransactionDetail(tabB);
    await detail.waitForIt();
    await tabB.getByTestId("unpaid-meaning").waitFor();
    expect(await detail.historySteps().count()).toBeGreaterThan(1);
    await shoot(tabB, "transaction-unpaid-en-light");

    await tabA.close();
    await tabB.close();
  }, 150_000);

  it("stamps test records by the test clock, and says which screens are on real time", async () => {
    const page = await session.newPage();
    await new HomeDashboard(page).open();
    await new Shell(page).waitUntilLive();
    const clock = new TestMode(page);
    await clock.switchOn();
    // The month played above: the test date is weeks past the calendar's.
    await clock.advance("week");
    await clock.waitUntilPlayed();
    const today = await clock.today();
    const calendarToday = new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Johannesburg" }).format(new Date());
    expect(today > calendarToday).toBe(true);
    const testDate = new Intl.DateTimeFormat("en-ZA", { dateStyle: "medium", timeZone: "Africa/Johannesburg" }).format(new Date(`${today}T12:00:00+02:00`));

    const customerId = await createRecord(page, "test", { t: "CreateCustomer", input: debiCheckPayer("Ayanda Khumalo", "ayanda@example.co.za") });
    await page.goto(`/customers/${customerId}?mode=test`);
    const created = page.locator("dt", { hasText: "Created" }).locator("xpath=following-sibling::dd[1]");
    await expect.poll(() => created.textContent()).toContain(testDate);

    // The history's "When" of that change is on the same clock.
    await page.goto("/account/history?mode=test");
    const newest = page.getByTestId("history-row").filter({ hasText: "Ayanda Khumalo" }).first();
    await expect.poll(() => newest.locator("td").first().textContent()).toContain(testDate);
    expect(await page.getByTestId("test-strip").textContent()).toContain("Times on test records follow the test clock.");

    // API tokens are on the wall clock, and their screen says so in test mode only.
    await page.goto("/developers/tokens?mode=test");
    await expect.poll(() => page.getByTestId("real-time-note").textContent()).toBe("Times on this page are real time, not the test clock.");
    await shoot(page, "api-tokens-test-clock-en-light");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId("test-strip-toggle").click();
    // The side menu slides away at this width: shoot once it has.
    await page.waitForTimeout(400);
    await shoot(page, "api-tokens-test-clock-en-light-390");
    await page.setViewportSize({ width: 1280, height: 800 });
    await new Shell(page).chooseMode("live");
    await page.getByTestId("api-tokens-page").waitFor();
    await expect.poll(() => page.getByTestId("real-time-note").count()).toBe(0);
    await page.close();
  }, 90_000);

  it("reads right in Afrikaans and in the dark", async () => {
    const page = await session.newPage();
    const home = new HomeDashboard(page);
    await home.open();
    const shell = new Shell(page);
    await shell.waitUntilLive();
    // "Home" is the current page at /home as at /.
    expect(await shell.nav().locator('a[aria-current="page"]').textContent()).toBe("Home");
    // The words beside the switch are its label: a click on them turns it.
    const modeSwitch = page.getByTestId("mode-switch");
    const wasTest = (await modeSwitch.getAttribute("aria-checked")) === "true";
    await page.locator("label", { hasText: "Test mode" }).click();
    await expect.poll(() => modeSwitch.getAttribute("aria-checked")).toBe(String(!wasTest));
    if (wasTest) await page.locator("label", { hasText: "Test mode" }).click();
    await new TestMode(page).strip().waitFor();
    await shell.chooseLanguage("afr");
    await shell.chooseTheme("dark");
    await home.waitForFigures();
    await expect.poll(() => home.feedRows().count()).toBeGreaterThan(0);
    await shoot(page, "home-afr-dark");
    // Nothing on Home is cut off in Afrikaans, the longer language, on a laptop or a phone:
    // not a figure, nor the words in its place, nor the upcoming debits' amounts.
    await expect.poll(() => home.upcomingRows().count()).toBeGreaterThan(0);
    const panels = [".home-panel", ".stat"];
    expect(await clippedText(page, panels)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await clippedText(page, panels)).toEqual([]);
    // On a phone the test strip folds to its title and date; one tap shows the clock.
    expect(await page.getByTestId("clock-day").isVisible()).toBe(false);
    await shoot(page, "home-afr-dark-phone");
    await page.getByTestId("test-strip-toggle").click();
    await page.getByTestId("clock-day").waitFor();
    await shootPart(new TestMode(page).strip(), "test-strip-open-afr-dark-phone");
    // And a list's filters fold behind one button, the search left in view.
    await page.goto("/payments/transactions" + new URL(page.url()).search);
    await page.getByTestId("transactions-page").waitFor();
    await page.getByTestId("filter-search").waitFor();
    expect(await page.getByTestId("filter-status").isVisible()).toBe(false);
    await shoot(page, "transactions-afr-dark-phone");
    await page.getByTestId("filter-toggle").click();
    await page.getByTestId("filter-status").waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
    await home.open();
    const list = new TransactionsList(page);
    await list.openFromNav();
    await list.filterStatus("unpaid");
    await expect.poll(() => list.statuses().first().getAttribute("data-status")).toBe("unpaid");
    await shoot(page, "transactions-afr-dark");
    // A click anywhere on the row opens it, not only on its date.
    await list.rows().first().getByTestId("transaction-amount").click();
    await new TransactionDetail(page).waitForIt();
    await shoot(page, "transaction-unpaid-afr-dark");
    await shell.chooseTheme("light");
    await shoot(page, "transaction-unpaid-afr-light");
    await shell.chooseLanguage("en");
    await shell.chooseTheme("dark");
    await list.openFromNav();
    await expect.poll(() => list.rows().count()).toBeGreaterThan(0);
    await shoot(page, "transactions-en-dark");
    await page.close();
  }, 60_000);
});
