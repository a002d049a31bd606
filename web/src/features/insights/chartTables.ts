import Papa from "papaparse";
import { csvCell, quoteCsvCell } from "../../components/spreadsheetCells";
import type { Insights, PaymentMethod } from "../../protocol/wire";

/** The charts of the insights screen; each also shows as a table and downloads as CSV. */
export const CHARTS = ["collected", "successRate", "unpaidReasons", "unpaidRatio", "disputeRatio", "forecast"] as const;
export type ChartId = (typeof CHARTS)[number];

/** What a cell holds: a date, money, a count, a ratio in basis points or words. */
export type Cell =
  | { kind: "date"; value: string }
  | { kind: "money"; cents: number }
  | { kind: "count"; value: number }
  /** No `bp` when the bucket had nothing to count: a gap, not 0 %. */
  | { kind: "ratio"; bp: number | null }
  | { kind: "text"; value: string };

export type ChartTable = { columns: string[]; rows: Cell[][] };

/** The words a table needs, in the screen's language. */
export type TableLabels = {
  column: (key: string) => string;
  method: (method: PaymentMethod) => string;
  /** The meaning of a bank reason code (or of `rejected`). */
  reason: (code: string) => string;
};

/**
 * The number of a bank's unpaid reason ("02"), or undefined for a reason of our own
 * (`rejected`, `mandate_ended`): those are internal codes, shown only by their meaning.
 */
export function bankReasonNumber(code: string): string | undefined {
  return /^\d+$/.test(code) ? code : undefined;
}

/** Methods that settled debits in any bucket, in a stable order for columns and lines. */
export function methodsOf(insights: Insights): PaymentMethod[] {
  const seen = new Set<PaymentMethod>();
  for (const point of insights.points) for (const m of point.byMethod) seen.add(m.method);
  return [...seen].sort();
}

function ratioTable(insights: Insights, which: "unpaid" | "dispute", labels: TableLabels): ChartTable {
  const methods = methodsOf(insights);
  const threshold = which === "unpaid" ? insights.unpaidThresholdBp : insights.disputeThresholdBp;
  const overall = (p: Insights["points"][number]) => (which === "unpaid" ? p.unpaidRatioBp : p.disputeRatioBp) ?? null;
  return {
    columns: [labels.column("period"), labels.column("all"), ...methods.map(labels.method), labels.column("threshold")],
    rows: insights.points.map((point) => [
      { kind: "date", value: point.start },
      { kind: "ratio", bp: overall(point) },
      ...methods.map((method): Cell => {
        const m = point.byMethod.find((entry) => entry.method === method);
        return { kind: "ratio", bp: m ? (which === "unpaid" ? m.unpaidRatioBp : m.disputeRatioBp) : null };
      }),
      { kind: "ratio", bp: threshold },
    ]),
  };
}

/** The numbers behind one chart, as rows and columns. */
export function chartTable(chart: ChartId, insights: Insights, labels: TableLabels): ChartTable {
  const c = labels.column;
  switch (chart) {
    case "collected":
      return {
        columns: [c("period"), c("collectedValue"), c("collectedCount")],
        rows: insights.points.map((p) => [
          { kind: "date", value: p.start },
          { kind: "money", cents: p.collectedCents },
          { kind: "count", value: p.collectedCount },
        ]),
      };
    case "successRate":
      return {
        columns: [c("period"), c("settled"), c("paid"), c("successRate")],
        rows: insights.points.map((p) => [
          { kind: "date", value: p.start },
          { kind: "count", value: p.paymentsSettled },
          { kind: "count", value: p.paymentsPaid },
          { kind: "ratio", bp: p.successRateBp ?? null },
        ]),
      };
    case "unpaidReasons":
      return {
        columns: [c("code"), c("meaning"), c("count"), c("value")],
        rows: insights.unpaidReasons.map((r) => [
          { kind: "text", value: bankReasonNumber(r.code) ?? "—" },
          { kind: "text", value: labels.reason(r.code) },
          { kind: "count", value: r.count },
          { kind: "money", cents: r.cents },
        ]),
      };
    case "unpaidRatio":
      return ratioTable(insights, "unpaid", labels);
    case "disputeRatio":
      return ratioTable(insights, "dispute", labels);
    case "forecast":
      return {
        columns: [c("date"), c("count"), c("value")],
        rows: insights.forecast.map((d) => [
          { kind: "date", value: d.date },
          { kind: "count", value: d.count },
          { kind: "money", cents: d.cents },
        ]),
      };
  }
}

/** Cents as rand with two decimals and a point, the way spreadsheets read numbers: 1234.50. */
export function centsToRand(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(cents) / 100);
  return `${sign}${whole}.${String(Math.abs(cents) % 100).padStart(2, "0")}`;
}

/** A ratio as a plain percentage with two decimals and a point: 1250 bp is 12.50. */
export function bpToPercent(bp: number): string {
  return (bp / 100).toFixed(2);
}

/** A cell the way spreadsheets read it: ISO dates, rand and percentages with a point. */
export function csvValue(cell: Cell): string {
  switch (cell.kind) {
    case "date":
    case "text":
      return cell.value;
    case "money":
      return centsToRand(cell.cents);
    case "count":
      return String(cell.value);
    case "ratio":
      return cell.bp === null ? "" : bpToPercent(cell.bp);
  }
}

/**
 * The CSV text of a chart's table. Every cell goes through the app's formula guard, so a
 * translated word or a code that starts like a formula stays text in a spreadsheet.
 */
export function tableCsv(table: ChartTable): string {
  const fields = table.columns.map(csvCell);
  const data = table.rows.map((row) => row.map((cell) => csvCell(csvValue(cell))));
  return Papa.unparse({ fields, data }, { quotes: quoteCsvCell, newline: "\r\n" });
}

/** `insights-<chart>-<from>-<to>.csv`. */
export function csvFileName(chart: ChartId, insights: Insights): string {
  const name = chart.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  return `insights-${name}-${insights.from}-${insights.to}.csv`;
}
