import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, type Session } from "./browser";
import { createRecord, runCommand } from "./dashboardSeed";
import { signUpFresh } from "./flows";
import type { Account } from "./pages/AuthPages";
import { CustomerDetailPage, CustomersListPage } from "./pages/CustomerPages";
import { ApiTokensPage, WebhooksPages } from "./pages/DeveloperPages";
import { HistoryEntryPage, HistoryListPage } from "./pages/HistoryPages";
import { Shell } from "./pages/Shell";
import { customerInput } from "./seed";

// No receiver listens here: the endpoint wants payment events, and this account makes none.
const ENDPOINT_URL = "http://127.0.0.1:9/karoo-hooks";

describe("account history, live across tabs", () => {
  let session: Session;
  let account: Account;

  beforeAll(async () => {
    session = await openBrowser();
    const page = await session.newPage();
    account = await signUpFresh(page, "history");
    await page.close();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("shows a change made in one tab live in another, filters by person and opens an entry", async () => {
    const tabA = await session.newPage();
    const tabB = await session.newPage();
    const customers = new CustomersListPage(tabA);
    const history = new HistoryListPage(tabB);
    await customers.open();
    await history.open();
    await new Shell(tabA).waitUntilLive();
    await new Shell(tabB).waitUntilLive();
    // The sign-up's sign-in is the first entry.
    await history.row("Account · Signed in").waitFor();

    await tabA.bringToFront();
    await customers.create({ name: "Sipho Dlamini", email: "sipho@example.co.za" });
    const detail = new CustomerDetailPage(tabA);
    await detail.waitForIt();
    await detail.edit({ name: "Sipho M. Dlamini" });

    // Tab B never reloads: both entries arrive over the socket.
    await history.row("Customer · Updated").waitFor();
    await history.row("Customer · Created").waitFor();
    const updated = history.row("Customer · Updated");
    expect(await updated.getByTestId("history-who").textContent()).toBe(account.name);
    expect(await updated.locator(".history-fields").textContent()).toBe("Name");
    // Each entry names its customer as the change left them.
    expect(await history.recordName(updated).textContent()).toBe("Sipho M. Dlamini");
    expect(await history.recordName(history.row("Customer · Created")).textContent()).toBe("Sipho Dlamini");
    await tabB.bringToFront();
    await shoot(tabB, "history-list-en-light");

    // Filter by person: kept in the address, every row is theirs.
    await history.filterByPerson(account.name);
    await tabB.waitForURL((url) => url.searchParams.has("person"));
    await history.filterByAction("Updated");
    await tabB.waitForURL((url) => url.searchParams.get("action") === "updated");
    await expect.poll(() => history.rows().count()).toBe(1);
    expect(await history.rows().first().getByTestId("history-who").textContent()).toBe(account.name);

    // The CSV holds what the filter matches: the one entry, its changed field before and after.
    const exported = await history.exportCsv();
    expect(exported.suggestedFilename()).toMatch(/^paydesk-history-live-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = await history.csvOf(exported);
    expect(header).toEqual(["Entry", "Time (UTC)", "Who", "Address", "Browser", "Record", "Record name", "Record ID", "Action", "Field", "Before", "After"]);
    expect(rows).toHaveLength(1);
    expect([rows[0][2], rows[0][5], rows[0][6], rows[0][8], rows[0][9], rows[0][10], rows[0][11]]).toEqual([
      account.name,
      "Customer",
      "Sipho M. Dlamini",
      "Updated",
      "Name",
      "Sipho Dlamini",
      "Sipho M. Dlamini",
    ]);

    // A reload keeps the filters.
    await tabB.reload();
    await expect.poll(() => history.rows().count()).toBe(1);

    await history.rows().first().getByRole("link").click();
    const entry = new HistoryEntryPage(tabB);
    await entry.waitForIt();
    expect(await entry.title().textContent()).toBe("Customer · Updated");
    expect(await entry.recordNameLabel().textContent()).toBe("Customer name");
    expect(await entry.recordName().textContent()).toBe("Sipho M. Dlamini");
    await expect.poll(() => entry.value("name", 0).textContent()).toBe("Sipho Dlamini");
    await expect.poll(() => entry.value("name", 1).textContent()).toBe("Sipho M. Dlamini");
    // Fields read by their labels, and values in words: a flag is yes or no, not `false`.
    expect(await entry.fieldLabel("name").textContent()).toBe("Name");
    expect(await entry.fieldLabel("addressLine1").textContent()).toBe("Address line 1");
    expect(await entry.fieldLabel("archived").textContent()).toBe("Archived");
    expect(await entry.value("archived", 1).textContent()).toBe("No");
    await shoot(tabB, "history-entry-en-light");

    await entry.recordLink().click();
    await tabB.waitForURL((url) => url.pathname.startsWith("/customers/cus_"));

    await tabA.close();
    await tabB.close();
  });

  it("names the API token and the webhook endpoint an entry is about", { timeout: 90_000 }, async () => {
    const page = await session.newPage();
    const tokens = new ApiTokensPage(page);
    await tokens.open();
    await new Shell(page).waitUntilLive();
    await tokens.create("Shop server");
    await tokens.revoke("Shop server");
    const webhooks = new WebhooksPages(page);
    await webhooks.open();
    await webhooks.add(ENDPOINT_URL, "Karoo shop", ["payment.created"]);
    await webhooks.closeSecret();

    const history = new HistoryListPage(page);
    await history.open();
    // The revocation: which token, by its name and its id.
    const revoked = history.row("API token · Revoked");
    expect(await history.recordName(revoked).textContent()).toBe("Shop server");
    expect(await revoked.getByText(/^tok_/).textContent()).toMatch(/^tok_\w+$/);
    expect(await revoked.locator(".history-fields").textContent()).toContain("State");
    expect(await history.recordName(history.row("API token · Created")).textContent()).toBe("Shop server");
    expect(await history.recordName(history.row("Webhook endpoint · Created")).textContent()).toBe(ENDPOINT_URL);
    await shoot(page, "history-records-en-light");

    await revoked.getByRole("link").click();
    const entry = new HistoryEntryPage(page);
    await entry.waitForIt();
    expect(await entry.recordName().textContent()).toBe("Shop server");
    expect(await entry.recordNameLabel().textContent()).toBe("Token name");
    expect(await entry.value("state", 1).textContent()).toBe("Revoked");
    expect(await entry.recordLink().textContent()).toMatch(/^tok_/);
    await shoot(page, "history-record-token-en-light");

    // Structured values read field by field: a payout schedule, not its JSON.
    await runCommand(page, "live", { t: "SetPayoutSchedule", schedule: { interval: "weekly", weekday: 2, dayOfMonth: 1, minimumCents: 25_000 } });
    await history.open();
    await history.row("Payout settings · Created").getByRole("link").click();
    await entry.waitForIt();
    const schedule = await entry.value("schedule", 1).textContent();
    expect(schedule).toMatch(/Minimum: R\s250,00/);
    expect(schedule).toContain("Weekday: 2");
    expect(schedule).not.toContain("{");
    await page.close();
  });

  it("looks right in Afrikaans and in dark mode", async () => {
    const page = await session.newPage();
    const history = new HistoryListPage(page);
    await history.open();
    const shell = new Shell(page);
    await shell.waitUntilLive();
    await history.row("Customer · Created").waitFor();
    await shell.chooseTheme("dark");
    await shoot(page, "history-list-en-dark");
    await history.row("Customer · Updated").getByRole("link").click();
    const entry = new HistoryEntryPage(page);
    await entry.waitForIt();
    await shoot(page, "history-entry-en-dark");

    await shell.chooseLanguage("afr");
    await page.getByText("Geskiedenis").first().waitFor();
    // The same entry in Afrikaans: labels and worded values follow the language.
    await expect.poll(() => entry.fieldLabel("name").textContent()).toBe("Naam");
    expect(await entry.fieldLabel("addressLine1").textContent()).toBe("Adresreël 1");
    expect(await entry.fieldLabel("archived").textContent()).toBe("Geargiveer");
    expect(await entry.value("archived", 1).textContent()).toBe("Nee");
    expect(await entry.change("archived").getAttribute("data-field")).toBe("archived");
    await shoot(page, "history-entry-afr-dark");
    await history.open();
    await history.row("Kliënt · Geskep").waitFor();
    expect(await history.row("Kliënt · Bygewerk").locator(".history-fields").textContent()).toBe("Naam");
    expect(await history.recordName(history.row("API-token · Herroep")).textContent()).toBe("Shop server");
    expect(await history.recordName(history.row("Webhook-eindpunt · Geskep")).textContent()).toBe(ENDPOINT_URL);
    await shoot(page, "history-list-afr-dark");
    await shell.chooseTheme("light");
    await shoot(page, "history-list-afr-light");
    await history.rows().first().getByRole("link").click();
    await new HistoryEntryPage(page).waitForIt();
    await shoot(page, "history-entry-afr-light");
    // Leave the shared session as other tests expect it.
    await shell.chooseLanguage("en");
    await page.close();
  });
});

describe("account history export", () => {
  let session: Session;
  const UPDATES = 60;
  // One of the names starts like a formula (a name may start with a dash).
  const nameAt = (n: number) => (n === 30 ? "-1-1 Sipho" : `Sipho Dlamini ${n}`);

  beforeAll(async () => {
    session = await openBrowser();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("exports every entry the filter matches, not only those loaded, each field before and after", { timeout: 120_000 }, async () => {
    const page = await session.newPage();
    const account = await signUpFresh(page, "history-export");
    // A fresh account opens in live mode: its history is the live one's.
    const customerId = await createRecord(page, "live", { t: "CreateCustomer", input: customerInput(nameAt(0), "sipho@example.co.za") });
    // One at a time, each once its reply came: every update is its own entry.
    for (let n = 1; n <= UPDATES; n += 1) {
      await runCommand(page, "live", { t: "UpdateCustomer", customerId, input: customerInput(nameAt(n), `sipho${n}@example.co.za`) });
    }

    const history = new HistoryListPage(page);
    await history.open("?record=customer&action=updated");
    await new Shell(page).waitUntilLive();
    // The screen holds one page of them; the file holds them all.
    await expect.poll(() => history.rows().count()).toBe(50);
    await page.getByTestId("load-more").waitFor();

    const [header, ...rows] = await history.csvOf(await history.exportCsv());
    expect(header.slice(9)).toEqual(["Field", "Before", "After"]);
    expect(new Set(rows.map((row) => row[0])).size).toBe(UPDATES);
    expect(rows.every((row) => row[2] === account.name && row[5] === "Customer" && row[7] === customerId && row[8] === "Updated")).toBe(true);
    const named = (field: string) => rows.filter((row) => row[9] === field).map((row) => [row[10], row[11]]);
    const shown = (name: string) => (name.startsWith("-") ? `'${name}` : name);
    // Newest first: each update's name as it was and as it became.
    expect(named("Name")).toEqual(Array.from({ length: UPDATES }, (_, index) => [shown(nameAt(UPDATES - index - 1)), shown(nameAt(UPDATES - index))]));
    expect(named("E-mail address")[0]).toEqual([`sipho${UPDATES - 1}@example.co.za`, `sipho${UPDATES}@example.co.za`]);
    await page.close();
  });
});
