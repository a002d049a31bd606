import { describe, expect, it } from "vitest";
import type { Ask } from "../../live/ask";
import type { Statement, StatementLine } from "../../protocol/wire";
import { readPeriod, readStatement, summaryPath, summaryRows } from "./summaryView";

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
      business: { legalName: "Karoo Gym", registrationNumber: "", vatNumber: "" },
    };
    const rows = summaryRows(statement, (row) => row.t);
    expect(rows.map((row) => row.key)).toEqual(["opening", "collected-card", "fees", "feeReturns", "refunds", "reversals", "disputes", "kind-payout", "closing"]);
    expect(rows.reduce((sum, row) => (row.strong ? sum : sum + row.cents), statement.openingBalanceCents)).toBe(statement.closingBalanceCents);
  });
});

describe("reading a statement", () => {
  const empty: Statement = {
    from: "2026-03-01",
    to: "2026-03-31",
    openingBalanceCents: 0,
    collected: [],
    feesCents: 0,
    feeReturnsCents: 0,
    refundsCents: 0,
    reversalsCents: 0,
    disputesCents: 0,
    payouts: [],
    other: [],
    closingBalanceCents: 0,
    lines: [],
    linesTotal: 3,
    business: { legalName: "", registrationNumber: "", vatNumber: "" },
  };
  const line = (id: string) => ({ id, date: "2026-03-02", kind: "collection", name: "Thandi", reference: "GYM", amountCents: 100 }) as StatementLine;

  it("asks for every page of entries from the offset the last one ended at, and keeps the first page's figures", async () => {
    const asked: number[] = [];
    const pages: Record<number, Statement> = {
      0: { ...empty, lines: [line("a"), line("b")], nextOffset: 2 },
      2: { ...empty, openingBalanceCents: 99, lines: [line("c")] },
    };
    const ask: Ask = (query) => {
      const offset = query.t === "GetStatement" ? query.offset : -1;
      asked.push(offset);
      return Promise.resolve({ t: "Statement", statement: pages[offset] });
    };
    const statement = await readStatement(ask, { from: "2026-03-01", to: "2026-03-31" });
    expect(asked).toEqual([0, 2]);
    expect(statement.lines.map((entry) => entry.id)).toEqual(["a", "b", "c"]);
    expect(statement.openingBalanceCents).toBe(0);
  });
});
