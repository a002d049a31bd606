import { describe, expect, it } from "vitest";
import type { Insights } from "../../protocol/wire";
import type { Palette } from "./Chart";
import { chartConfig, type ChartWords } from "./chartConfigs";

const insights: Insights = {
  today: "2026-03-16",
  from: "2026-03-01",
  to: "2026-03-02",
  bucket: "day",
  points: [],
  unpaidReasons: [
    { code: "02", count: 3, cents: 30_000 },
    { code: "rejected", count: 1, cents: 10_000 },
  ],
  unpaidThresholdBp: 1_000,
  disputeThresholdBp: 50,
  forecast: [],
};

const palette: Palette = { text: "#000", muted: "#555", grid: "#ddd", series: ["#1", "#2", "#3", "#4"], danger: "#f00", amber: "#fa0" };

// Afrikaans meanings: an English internal code must not show beside them.
const words: ChartWords = {
  column: (key) => key,
  method: (method) => method,
  reason: (code) => code,
  reasonShort: (code) => (code === "rejected" ? "Deur die bank afgewys" : "Nie voor voorsiening gemaak nie"),
  date: (iso) => iso,
  money: (cents) => String(cents),
  percent: (bp) => String(bp),
};

describe("unpaid reasons chart", () => {
  it("labels a bank's reason with its number and meaning, and our own reason with its meaning only", () => {
    const config = chartConfig("unpaidReasons", insights, palette, words);
    expect(config.data.labels).toEqual([["02", "Nie voor voorsiening", "gemaak nie"], ["Deur die bank afgewys"]]);
  });
});

describe("success rate chart", () => {
  it("leaves a gap on a day with nothing settled instead of drawing 0 %", () => {
    const point = { collectedCents: 0, collectedCount: 0, settled: 0, paid: 0, unpaid: 0, disputed: 0, byMethod: [] };
    const withGap: Insights = {
      ...insights,
      points: [
        { ...point, start: "2026-03-01", paymentsSettled: 2, paymentsPaid: 1, successRateBp: 5_000 },
        { ...point, start: "2026-03-02", paymentsSettled: 0, paymentsPaid: 0 },
      ],
    };
    expect(chartConfig("successRate", withGap, palette, words).data.datasets[0].data).toEqual([50, null]);
    expect(chartConfig("unpaidRatio", withGap, palette, words).data.datasets[0].data).toEqual([null, null]);
  });
});
