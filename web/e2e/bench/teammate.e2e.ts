// How long a teammate's change takes to show on another person's open screen, per screen.
// Run by hand, never in CI (it measures, it asserts nothing about time):
//   E2E_BENCH=1 E2E_SKIP_BUILD=1 npm --prefix web run e2e -- e2e/bench/teammate.e2e.ts
// The owner's tab keeps one socket open and sends each command on it; the time runs from the
// moment the command leaves until the row is drawn in the teammate's browser (both read the
// same machine's clock). It prints p50, p90 and the slowest per screen, and beside them the time
// from the last frame the owner's browser got before the screen changed (a test-clock week plays
// for a while on the server; this part is what the browser adds). Transactions and the payouts
// balance are timed twice: with the owner charging a saved card (a person's change, which the
// server writes at once), and with a week of the test clock (the server plays seven business
// days before the first delta leaves). BENCH_SCREENS (below) times only some screens;
// BENCH_VERBOSE prints every time.
import { describe, it } from "vitest";
import type { Page } from "playwright-core";
import type { Command } from "../../src/protocol/wire";
import { createRecord, debiCheckPayer, weeklyDebiCheck } from "../dashboardSeed";
import { eftDebitOrder } from "../collectionsSeed";
import { payByCard } from "../pages/CommercePages";
import { openTeam, send, SOCKET } from "./team";

const CHANGES = 20;

/** When the last frame before `at` reached the owner's browser (after `since`), if any did. */
function lastFrameBefore(page: Page, since: number, at: number): Promise<number | undefined> {
  return page.evaluate(
    ({ name, since, at }) => {
      const arrivals = (window as unknown as Record<string, number[]>)[`${name}Arrivals`];
      return arrivals.filter((time) => time >= since && time <= at).pop();
    },
    { name: SOCKET, since, at },
  );
}

/** What `selector` draws now: its rows and their text. */
function drawn(page: Page, selector: string): Promise<string> {
  return page.evaluate((selector) => [...document.querySelectorAll(selector)].map((node) => (node as HTMLElement).innerText).join("\n"), selector);
}

/** Resolves with the time the teammate's screen draws `selector` other than `before`. */
function shownAfter(page: Page, selector: string, before: string): Promise<number> {
  return page
    .waitForFunction(
      ({ selector, before }) =>
        [...document.querySelectorAll(selector)].map((node) => (node as HTMLElement).innerText).join("\n") !== before ? Date.now() : false,
      { selector, before },
      { polling: "raf", timeout: 10_000 },
    )
    .then((handle) => handle.jsonValue() as Promise<number>)
    .catch(() => Number.POSITIVE_INFINITY);
}

type Screen = { name: string; path: string; ready: string; row: string; change: (index: number) => Command };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

describe("a teammate's change on an open screen", () => {
  it("times 20 changes on each screen", { timeout: 900_000 }, async () => {
    const { owner, ownerPage, page, close } = await openTeam("bench");
    const payer = await createRecord(ownerPage, "test", { t: "CreateCustomer", input: debiCheckPayer("Thandi Nkosi", "thandi@example.co.za") });
    const today = await page.getByTestId("test-clock-today").getAttribute("datetime");
    const customer = (index: number): Command => ({ t: "CreateCustomer", input: debiCheckPayer(`Payer ${index}`, `payer${index}@example.co.za`) });
    const screens: Screen[] = [
      { name: "customers list", path: "/customers", ready: "customers-page", row: '[data-testid="customer-row"]', change: customer },
      {
        name: "one-time payments",
        path: "/payments/one-time",
        ready: "payments-page-once",
        row: '[data-testid="payment-row"]',
        change: (index) => ({ t: "CreatePayment", input: eftDebitOrder({ customerId: payer, accountNumber: `1000000${String(index).padStart(3, "0")}`, amountCents: 10_000 + index, date: today ?? "", kind: "once", reference: "" }) }),
      },
      {
        name: "recurring payments",
        path: "/payments/recurring",
        ready: "payments-page-recurring",
        row: '[data-testid="payment-row"]',
        change: (index) => ({ t: "CreatePayment", input: weeklyDebiCheck(payer, today ?? "", `40000000${10 + index}`, 20_000 + index) }),
      },
      {
        name: "home (upcoming)",
        path: "/home",
        ready: "upcoming",
        // The soonest eight, then how many more: the panel's text changes with each new debit.
        row: '[data-testid="upcoming"]',
        change: (index) => ({ t: "CreatePayment", input: weeklyDebiCheck(payer, today ?? "", `40000000${40 + index}`, 30_000 + index) }),
      },
      { name: "history", path: "/account/history", ready: "history-page", row: '[data-testid="history-row"]', change: (index) => customer(100 + index) },
      // The owner charges the payer's saved card: a paid card transaction at once, and its
      // amount less the fee joins the pending balance.
      { name: "transactions (card charge)", path: "/payments/transactions", ready: "transactions-page", row: '[data-testid="transaction-row"]', change: (index) => charge(40_000 + index, `BENCH-TXN-${index}`) },
      { name: "payouts balance (card charge)", path: "/account/payouts", ready: "payout-balance", row: '[data-testid="payout-balance"]', change: (index) => charge(50_000 + index, `BENCH-PAY-${index}`) },
      // A week of the test clock: the weekly debits seeded below collect, so transactions
      // arrive and the balance moves. The time includes the server playing the week.
      { name: "transactions (clock week)", path: "/payments/transactions", ready: "transactions-page", row: '[data-testid="transaction-row"]', change: () => ({ t: "AdvanceTestClock", step: "week" }) },
      { name: "payouts balance (clock week)", path: "/account/payouts", ready: "payout-balance", row: '[data-testid="payout-balance"]', change: () => ({ t: "AdvanceTestClock", step: "week" }) },
    ];
    // A payer keeps a test card on file by paying a monthly membership page.
    const membership = await createRecord(ownerPage, "test", {
      t: "CreatePayPage",
      input: { title: "Karoo Gym membership", description: "", amountMode: "fixed", amountCents: 12_000, kind: "recurring", interval: "monthly", methods: ["card"], reference: "CLUB", colour: "#1e3a8a" },
    });
    const payerTab = await owner.newPage();
    await payByCard(payerTab, membership, { name: "Lerato Mokoena", email: "lerato@example.co.za", cardNumber: "4242424242424242" });
    await payerTab.goto("/cards?mode=test");
    await payerTab.getByTestId("card-row").first().waitFor();
    const cardId = (await payerTab.getByTestId("card-row").first().getAttribute("data-card-id")) ?? "";
    await payerTab.close();
    function charge(amountCents: number, reference: string): Command {
      return { t: "ChargeCard", cardId, amountCents, reference };
    }
    // Weekly debits for the clock to collect, from today on.
    for (let index = 0; index < 3; index += 1) {
      await createRecord(ownerPage, "test", {
        t: "CreatePayment",
        input: eftDebitOrder({ customerId: payer, accountNumber: `5000000${String(index).padStart(3, "0")}`, amountCents: 15_000 + index, date: today ?? "", kind: "recurring", reference: `WEEKLY${index}` }),
      });
    }

    const lines: string[] = [];
    // BENCH_SCREENS=transactions,payouts times only the screens whose names contain one of them.
    const only = process.env.BENCH_SCREENS?.split(",");
    for (const screen of screens.filter((s) => !only || only.some((part) => s.name.includes(part)))) {
      await page.goto(screen.path);
      await page.getByTestId(screen.ready).waitFor();
      await page.waitForTimeout(500);
      const times: number[] = [];
      const fromFrame: number[] = [];
      for (let index = 0; index < CHANGES; index += 1) {
        const shown = shownAfter(page, screen.row, await drawn(page, screen.row));
        const sentAt = await send(ownerPage, screen.change(index));
        const shownAt = await shown;
        times.push(shownAt - sentAt);
        const frameAt = Number.isFinite(shownAt) ? await lastFrameBefore(ownerPage, sentAt, shownAt) : undefined;
        fromFrame.push(frameAt === undefined ? shownAt - sentAt : shownAt - frameAt);
        await page.waitForTimeout(300);
      }
      if (process.env.BENCH_VERBOSE) console.log(screen.name, times.join(" "), "| from the last frame:", fromFrame.join(" "));
      const sorted = [...times].sort((a, b) => a - b);
      const framed = [...fromFrame].sort((a, b) => a - b);
      const never = sorted.filter((ms) => !Number.isFinite(ms)).length;
      lines.push(
        `${screen.name.padEnd(20)} p50 ${percentile(sorted, 50)} ms  p90 ${percentile(sorted, 90)} ms  slowest ${sorted[sorted.length - 1]} ms  never shown ${never}` +
          `  | from the last frame: p50 ${percentile(framed, 50)} ms  p90 ${percentile(framed, 90)} ms`,
      );
    }
    console.log(`\nA teammate's change on an open screen (${CHANGES} changes each):\n${lines.join("\n")}`);
    await close();
  });
});
