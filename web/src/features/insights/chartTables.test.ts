import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { Insights } from "../../protocol/wire";
import { bankReasonNumber, chartTable, csvFileName, methodsOf, tableCsv, type TableLabels } from "./chartTables";
import { periodRange, readInsightsView, writeInsightsView } from "./view";

const insights: Insights = {
  today: "2026-03-16",
  from: "2026-03-01",
  to: "2026-03-02",
  bucket: "day",
  points: [
    {
      start: "2026-03-01",
      collectedCents: 123_450,
      collectedCount: 3,
      settled: 4,
      paid: 3,
      unpaid: 1,
      disputed: 0,
      paymentsSettled: 5,
      paymentsPaid: 4,
      successRateBp: 8_000,
      unpaidRatioBp: 2_500,
      disputeRatioBp: 0,
      byMethod: [
        { method: "eft_debit_order", settled: 1, unpaid: 1, disputed: 0, unpaidRatioBp: 10_000, disputeRatioBp: 0 },
        { method: "debicheck", settled: 3, unpaid: 0, disputed: 0, unpaidRatioBp: 0, disputeRatioBp: 0 },
      ],
    },
    {
      start: "2026-03-02",
      collectedCents: 0,
      collectedCount: 0,
      settled: 0,
      paid: 0,
      unpaid: 0,
      disputed: 0,
      paymentsSettled: 0,
      paymentsPaid: 0,
      byMethod: [],
    },
  ],
  unpaidReasons: [{ code: "12", count: 1, cents: 10_000 }],
  unpaidThresholdBp: 1_000,
  disputeThresholdBp: 50,
  forecast: [{ date: "2026-04-07", count: 5, cents: 50_000 }],
};

// A translated word that starts like a formula must stay text.
const labels: TableLabels = {
  column: (key) => (key === "meaning" ? "=Meaning" : key),
  method: (method) => ({ debicheck: "DebiCheck", eft_debit_order: "EFT" })[method as "debicheck"] ?? method,
  reason: (code) => (code === "12" ? "+Account closed" : code),
};

const parse = (csv: string) => Papa.parse<string[]>(csv.trim()).data;

describe("chart tables", () => {
  it("lists every bucket with collected value and count", () => {
    const table = chartTable("collected", insights, labels);
    expect(table.columns).toEqual(["period", "collectedValue", "collectedCount"]);
    expect(parse(tableCsv(table))).toEqual([
      ["period", "collectedValue", "collectedCount"],
      ["2026-03-01", "1234.50", "3"],
      ["2026-03-02", "0.00", "0"],
    ]);
  });

  it("splits ratios by method in a stable order, with the threshold", () => {
    expect(methodsOf(insights)).toEqual(["debicheck", "eft_debit_order"]);
    expect(parse(tableCsv(chartTable("unpaidRatio", insights, labels)))).toEqual([
      ["period", "all", "DebiCheck", "EFT", "threshold"],
      ["2026-03-01", "25.00", "0.00", "100.00", "10.00"],
      ["2026-03-02", "", "", "", "10.00"],
    ]);
    expect(parse(tableCsv(chartTable("disputeRatio", insights, labels)))[1]).toEqual(["2026-03-01", "0.00", "0.00", "0.00", "0.50"]);
  });

  it("keeps reason meanings and headers that start like formulas as text", () => {
    const csv = tableCsv(chartTable("unpaidReasons", insights, labels));
    expect(parse(csv)).toEqual([
      ["code", "'=Meaning", "count", "value"],
      ["12", "'+Account closed", "1", "100.00"],
    ]);
    expect(csv).toContain(`"'+Account closed"`);
  });

  it("gives a bank's number as the code, and none for a reason of our own", () => {
    const withRejected: Insights = { ...insights, unpaidReasons: [...insights.unpaidReasons, { code: "rejected", count: 2, cents: 5_000 }] };
    expect(chartTable("unpaidReasons", withRejected, labels).rows.map((row) => row[0])).toEqual([
      { kind: "text", value: "12" },
      { kind: "text", value: "—" },
    ]);
    expect(bankReasonNumber("02")).toBe("02");
    expect(bankReasonNumber("rejected")).toBeUndefined();
    expect(bankReasonNumber("mandate_ended")).toBeUndefined();
  });

  it("names the forecast and success rate columns and the file", () => {
    expect(parse(tableCsv(chartTable("forecast", insights, labels)))).toEqual([
      ["date", "count", "value"],
      ["2026-04-07", "5", "500.00"],
    ]);
    expect(parse(tableCsv(chartTable("successRate", insights, labels))).slice(1)).toEqual([
      ["2026-03-01", "5", "4", "80.00"],
      ["2026-03-02", "0", "0", ""],
    ]);
    expect(chartTable("successRate", insights, labels).rows[1][3]).toEqual({ kind: "ratio", bp: null });
    expect(csvFileName("unpaidReasons", insights)).toBe("insights-unpaid-reasons-2026-03-01-2026-03-02.csv");
  });
});

describe("insights view", () => {
  it("keeps the filters in the address and ignores unknown values", () => {
    const view = readInsightsView(new URLSearchParams("period=90&bucket=week&method=card&mode=test"));
    expect(view).toEqual({ period: "90", bucket: "week", method: "card" });
    expect(readInsightsView(writeInsightsView(view))).toEqual(view);
    expect(readInsightsView(new URLSearchParams("period=7&bucket=year&method=cash"))).toEqual({
      period: "30",
      bucket: "day",
      method: undefined,
    });
  });

  it("counts both ends of the period", () => {
    expect(periodRange("2026-03-16", "30")).toEqual({ from: "2026-02-15", to: "2026-03-16" });
    expect(periodRange("2026-03-16", "365")).toEqual({ from: "2025-03-17", to: "2026-03-16" });
  });
});
