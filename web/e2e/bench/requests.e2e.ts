// How many reads a burst costs the open screens of a teammate: a month of the test clock, and an
// import of a few thousand rows. Run by hand, never in CI (it measures, it asserts nothing):
//   E2E_BENCH=1 E2E_SKIP_BUILD=1 npm --prefix web run e2e -- e2e/bench/requests.e2e.ts
// The teammate keeps one tab open on each screen; every tab counts the reads (`Query` frames) its
// socket sends from the moment the burst starts until the screens have been quiet for 3 s.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createRecord, debiCheckPayer } from "../dashboardSeed";
import { eftDebitOrder } from "../collectionsSeed";
import { csvOf, EFT_ONCE_HEADER, eftOnceRow, inDays } from "../importsCsv";
import { ImportDialog, ImportPage } from "../pages/ImportPages";
import { openTeam, send } from "./team";
import type { Session } from "../browser";

const IMPORT_ROWS = 3_000;

type Screen = { name: string; path: string; ready: string };
const SCREENS: Screen[] = [
  { name: "home", path: "/home", ready: "upcoming" },
  { name: "one-time payments", path: "/payments/one-time", ready: "payments-page-once" },
  { name: "recurring payments", path: "/payments/recurring", ready: "payments-page-recurring" },
  { name: "transactions", path: "/payments/transactions", ready: "transactions-page" },
  { name: "customers", path: "/customers", ready: "customers-page" },
  { name: "payouts", path: "/account/payouts", ready: "payout-balance" },
];

/** The same day a month on, as the test clock steps (the 31st onto a shorter month's last). */
function monthOn(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(date, last))).toISOString().slice(0, 10);
}

/** Every tab of the teammate counts the reads its socket sends (a frame whose `t` is "Query"). */
async function countReads(teammate: Session): Promise<void> {
  await teammate.context.addInitScript(() => {
    const query = [0xa5, 0x51, 0x75, 0x65, 0x72, 0x79]; // "Query" as MessagePack writes it
    const counter = window as unknown as { __reads: number; __lastRead: number };
    counter.__reads = 0;
    counter.__lastRead = 0;
    const sendFrame = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      const bytes = data instanceof Uint8Array ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : undefined;
      if (bytes && bytes.length > 6) {
        for (let at = 0; at + query.length <= Math.min(bytes.length, 24); at += 1) {
          if (query.every((byte, index) => bytes[at + index] === byte)) {
            counter.__reads += 1;
            counter.__lastRead = Date.now();
            break;
          }
        }
      }
      return sendFrame.call(this, data);
    };
  });
}

const reads = (page: Page) => page.evaluate(() => (window as unknown as { __reads: number }).__reads);
const lastRead = (page: Page) => page.evaluate(() => (window as unknown as { __lastRead: number }).__lastRead);

/** Waits until no tab has read for `quietMs`. */
async function quiet(tabs: Page[], quietMs: number): Promise<void> {
  for (;;) {
    const last = Math.max(...(await Promise.all(tabs.map(lastRead))));
    if (Date.now() - last >= quietMs) return;
    await tabs[0].waitForTimeout(250);
  }
}

async function burst(tabs: Page[], run: () => Promise<void>): Promise<number[]> {
  await quiet(tabs, 1_000);
  const before = await Promise.all(tabs.map(reads));
  await run();
  await quiet(tabs, 3_000);
  const after = await Promise.all(tabs.map(reads));
  return after.map((count, index) => count - before[index]);
}

describe("reads a burst costs a teammate's open screens", () => {
  it("counts the reads of a month of play and of an import", { timeout: 900_000 }, async () => {
    const { ownerPage, page, teammate, close } = await openTeam("reads", countReads);
    const payer = await createRecord(ownerPage, "test", { t: "CreateCustomer", input: debiCheckPayer("Thandi Nkosi", "thandi@example.co.za") });
    const today = (await page.getByTestId("test-clock-today").getAttribute("datetime")) ?? "";
    for (let index = 0; index < 10; index += 1) {
      await createRecord(ownerPage, "test", {
        t: "CreatePayment",
        input: eftDebitOrder({ customerId: payer, accountNumber: `500000000${index}`, amountCents: 15_000 + index, date: today, kind: "recurring", reference: `WEEKLY${index}` }),
      });
    }
    const tabs: Page[] = [];
    for (const screen of SCREENS) {
      const tab = await teammate.newPage();
      await tab.goto(`${screen.path}?mode=test`);
      await tab.getByTestId(screen.ready).waitFor();
      // A build that does not read the mode from the address opens a new tab in live mode.
      if ((await tab.getByTestId("test-strip").count()) === 0) {
        await tab.getByTestId("mode-switch").click();
        await tab.getByTestId("test-strip").waitFor();
        await tab.getByTestId(screen.ready).waitFor();
      }
      tabs.push(tab);
    }

    const month = await burst(tabs, async () => {
      await send(ownerPage, { t: "AdvanceTestClock", step: "month" });
      // The play is over when the teammate's clock shows a day a month on.
      const clock = page.getByTestId("test-clock-today");
      await expect.poll(async () => (await clock.getAttribute("datetime")) ?? "", { timeout: 120_000, interval: 200 }).toBe(monthOn(today));
    });

    const rows = Array.from({ length: IMPORT_ROWS }, (_, index) =>
      eftOnceRow(`BULK-${index}`, "Payer", `Number ${index}`, { "Bank account number": `${4_000_000_000 + index}`, "Date to process": inDays(10) }),
    );
    await ownerPage.goto("/payments/one-time");
    await ownerPage.getByTestId("payments-page-once").waitFor();
    const dialog = new ImportDialog(ownerPage);
    const imported = await burst(tabs, async () => {
      await dialog.open();
      await dialog.chooseTemplate("eft_debit_order");
      await dialog.upload("bulk.csv", csvOf(EFT_ONCE_HEADER, rows));
      await dialog.confirmButton().waitFor({ timeout: 120_000 });
      await dialog.confirm();
      await ownerPage.waitForURL((url) => /^\/payments\/one-time\/imports\/imp_/.test(url.pathname));
      const progress = new ImportPage(ownerPage);
      await progress.waitForIt();
      await expect.poll(() => progress.status(), { timeout: 300_000, interval: 500 }).toBe("completed");
    });

    const lines = SCREENS.map((screen, index) => `${screen.name.padEnd(20)} month of play ${String(month[index]).padStart(4)} reads   import of ${IMPORT_ROWS} rows ${String(imported[index]).padStart(4)} reads`);
    console.log(`\nReads a teammate's open screens sent:\n${lines.join("\n")}`);
    await close();
  });
});
