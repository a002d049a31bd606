import { readFileSync } from "node:fs";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, type Session } from "./browser";
import { createRecord, debiCheckPayer, weeklyDebiCheck } from "./dashboardSeed";
import { signUpFresh } from "./flows";
import { HomeDashboard, TestMode } from "./pages/DashboardPages";
import { Insights } from "./pages/InsightsPages";
import { Shell } from "./pages/Shell";

const sum = (rows: string[][], column: number) => rows.reduce((total, row) => total + Number(row[column]), 0);

describe("insights", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowser();
    const page = await session.newPage();
    await signUpFresh(page, "insights");
    await page.close();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("follows a month on the test clock live in another tab, as charts, tables and CSV", async () => {
    const tabA = await session.newPage();
    const home = new HomeDashboard(tabA);
    await home.open();
    await new Shell(tabA).waitUntilLive();
    const clock = new TestMode(tabA);
    await clock.switchOn();
    const today = await clock.today();

    // A payer the simulated bank pays (R499.99 a week) and one whose debits come back unpaid 02.
    const paid = await createRecord(tabA, "test", { t: "CreateCustomer", input: debiCheckPayer("Thandi Nkosi", "thandi@example.co.za") });
    const unpaid = await createRecord(tabA, "test", { t: "CreateCustomer", input: debiCheckPayer("Pieter Botha", "pieter@example.co.za") });
    await createRecord(tabA, "test", { t: "CreatePayment", input: weeklyDebiCheck(paid, today, "4000000001", 49_999) });
    await createRecord(tabA, "test", { t: "CreatePayment", input: weeklyDebiCheck(unpaid, today, "4000000002", 25_000) });

    // The second tab opens on test data from its address alone, grouped by week.
    const tabB = await session.newPage();
    const insights = new Insights(tabB);
    await insights.open("?period=30&bucket=week&mode=test");
    await new Shell(tabB).waitUntilLive();
    await new TestMode(tabB).strip().waitFor();
    await insights.canvas("collected").waitFor();
    // Nothing has settled yet; the weekly debits are in the forecast.
    await insights.showTable("collected");
    expect(sum(await insights.rows("collected"), 2)).toBe(0);
    await insights.showTable("forecast");
    await expect.poll(async () => (await insights.rows("forecast")).length).toBeGreaterThan(0);
    await shoot(tabB, "insights-before-en-light");

    // A person plays a month in the tab in front; tab B is never reloaded.
    await tabA.bringToFront();
    await clock.advance("month");
    await clock.waitUntilPlayed();

    await tabB.bringToFront();
    await expect.poll(async () => sum(await insights.rows("collected"), 2), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    expect(new URL(tabB.url()).searchParams.get("bucket")).toBe("week");

    // The unpaid reasons, with the code's meaning, as a table and as CSV.
    await insights.showTable("unpaidReasons");
    const reasons = await insights.rows("unpaidReasons");
    expect(reasons[0]?.[0]).toBe("02");
    expect(reasons[0]?.[1]).toContain("Not provided for");
    const download = await insights.downloadCsv("unpaidReasons");
    expect(download.suggestedFilename()).toMatch(/^insights-unpaid-reasons-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), "utf8").replace(/^\ufeff/, "");
    const [header, ...lines] = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data;
    expect(header).toEqual(["Code", "Meaning", "Debits", "Value (R)"]);
    expect(lines[0]?.[0]).toBe("02");
    expect(Number(lines[0]?.[2])).toBe(Number(reasons[0]?.[2]));
    expect(Number(lines[0]?.[3])).toBe(Number(lines[0]?.[2]) * 250);

    // The collected CSV matches the table on screen: one R499.99 debit per paid week.
    const collectedRows = await insights.rows("collected");
    const collected = await insights.downloadCsv("collected");
    const [, ...weeks] = Papa.parse<string[]>(readFileSync(await collected.path(), "utf8").replace(/^\ufeff/, "").trim()).data;
    expect(weeks).toHaveLength(collectedRows.length);
    for (const week of weeks) expect(Number(week[1])).toBeCloseTo(Number(week[2]) * 499.99, 2);
    expect(sum(weeks, 2)).toBe(sum(collectedRows, 2));
    await shoot(tabB, "insights-after-en-light");

    // A bookmark keeps the filters.
    await insights.chooseBucket("month");
    await tabB.waitForURL((url) => url.searchParams.get("bucket") === "month");
    await tabA.close();
    await tabB.close();
  }, 150_000);

  it("reads right in Afrikaans and in the dark", async () => {
    const page = await session.newPage();
    const insights = new Insights(page);
    const shell = new Shell(page);
    // The address names the mode: live data from a live link, test data from a test one.
    await insights.open("?period=90&bucket=week&mode=live");
    await shell.waitUntilLive();
    await new TestMode(page).strip().waitFor({ state: "hidden" });
    await insights.open("?period=90&bucket=week&mode=test");
    await shell.waitUntilLive();
    await new TestMode(page).strip().waitFor();
    // Switching with the header's control writes the mode into the address.
    await page.getByTestId("mode-switch").click();
    await page.waitForURL((url) => url.searchParams.get("mode") === "live");
    await page.getByTestId("mode-switch").click();
    await page.waitForURL((url) => url.searchParams.get("mode") === "test");
    await new TestMode(page).strip().waitFor();
    await insights.canvas("unpaidRatio").waitFor();
    await shell.chooseTheme("dark");
    await insights.canvas("unpaidRatio").waitFor();
    await shoot(page, "insights-en-dark");
    await shell.chooseLanguage("afr");
    await page.getByRole("heading", { name: "Insigte" }).waitFor();
    await shoot(page, "insights-afr-dark");
    await insights.showTable("unpaidReasons");
    expect((await insights.rows("unpaidReasons"))[0]?.[1]).toContain("fondse");
    await shell.chooseTheme("light");
    await shoot(page, "insights-afr-light");
    await page.close();
  }, 60_000);
});
