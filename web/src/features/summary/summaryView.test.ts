import { describe, expect, it } from "vitest";
import type { Statement } from "../../protocol/wire";
import { readPeriod, summaryPath, summaryRows } from "./summaryView";

describe("the summary's period and rows", () => {
  it("reads a period from the address and falls back to the month so far", () => {
    expect(readPeriod(new URLSearchParams("from=2026-03-01&to=2026-03-31"), "2026-04-09")).toEqual({ from: "2026-03-01", to: "2026-03-31" });
    expect(readPeriod(new URLSearchParams("from=yesterday&to=2026-03-31"), "2026-04-09")).toEqual({ from: "2026-04-01", to: "2026-04-09" });
    expect(readPeriod(new URLSearchParams(""), "2026-04-09")).toEqual({ from: "2026-04-01", to: "2026-04-09" });
    expect(summaryPath({ from: "2026-03-01", to: "2026-03-31" })).toBe("/download/summary?from=2026-03-01&to=2026-03-31");
  });

  it("lists opening, each section and closing in order", () => {
    const statement: Statement = {
      from: "2026-03-01",
      to: "2026-03-31",
      openingBalanceCents: 100,
      collected: [{ method: "card", count: 2, amountCents: 30_000 }],
      feesCents: -1286,
      feeReturnsCents: 0,
      refundsCents: -5000,
      reversalsCents: 0,
      disputesCents: 0,
      payouts: [{ kind: "payout", amountCents: -1000 }],
      other: [],
      closingBalanceCents: 22_814,
      lines: [],
      linesTotal: 5,
    };
    const rows = summaryRows(statement, (row) => row.t);
    expect(rows.map((row) => row.key)).toEqual(["opening", "collected-card", "fees", "feeReturns", "refunds", "reversals", "disputes", "kind-payout", "closing"]);
    expect(rows.reduce((sum, row) => (row.strong ? sum : sum + row.cents), statement.openingBalanceCents)).toBe(statement.closingBalanceCents);
  });
});
