import type { ChartConfiguration, ChartDataset } from "chart.js";
import type { Insights } from "../../protocol/wire";
import type { Palette } from "./Chart";
import { bankReasonNumber, methodsOf, type ChartId, type TableLabels } from "./chartTables";

type Config = ChartConfiguration<"bar" | "line">;

/** The words and number formats a chart draws, in the screen's language. */
export type ChartWords = TableLabels & {
  date: (iso: string) => string;
  money: (cents: number) => string;
  percent: (bp: number) => string;
  /** A reason code's meaning in a few words, for the chart's axis. */
  reasonShort: (code: string) => string;
};

function base(palette: Palette, labels: (string | string[])[], datasets: ChartDataset<"bar" | "line">[], y: Record<string, object>): Config {
  const axis = { ticks: { color: palette.muted }, grid: { color: palette.grid }, border: { color: palette.grid } };
  const scales: Record<string, object> = { x: { ...axis, grid: { display: false } } };
  for (const [id, extra] of Object.entries(y)) scales[id] = { ...axis, beginAtZero: true, ...extra };
  return {
    type: "bar",
    data: { labels, datasets },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: "index", intersect: false },
      plugins: { legend: { labels: { color: palette.text, boxWidth: 12 } } },
      scales,
    },
  };
}

// A null point is a bucket with nothing to count: Chart.js leaves a gap in the line there.
function line(label: string, data: (number | null)[], color: string, extra: Partial<ChartDataset<"line">> = {}): ChartDataset<"bar" | "line"> {
  return { type: "line", label, data, borderColor: color, backgroundColor: color, pointRadius: 2, borderWidth: 2, tension: 0.2, ...extra } as ChartDataset<"bar" | "line">;
}

function bar(label: string, data: number[], color: string, extra: Partial<ChartDataset<"bar">> = {}): ChartDataset<"bar" | "line"> {
  return { type: "bar", label, data, backgroundColor: color, borderRadius: 3, maxBarThickness: 40, ...extra } as ChartDataset<"bar" | "line">;
}

const percentAxis = (words: ChartWords) => ({ ticks: { callback: (value: number | string) => words.percent(Number(value) * 100) } });

function ratioChart(insights: Insights, which: "unpaid" | "dispute", palette: Palette, words: ChartWords): Config {
  const methods = methodsOf(insights);
  const threshold = (which === "unpaid" ? insights.unpaidThresholdBp : insights.disputeThresholdBp) / 100;
  const ratio = (bp: number | undefined) => (bp === undefined ? null : bp / 100);
  const datasets = [
    line(words.column("all"), insights.points.map((p) => ratio(which === "unpaid" ? p.unpaidRatioBp : p.disputeRatioBp)), palette.series[0]),
    ...methods.map((method, index) =>
      line(
        words.method(method),
        insights.points.map((p) => {
          const m = p.byMethod.find((entry) => entry.method === method);
          return ratio(m ? (which === "unpaid" ? m.unpaidRatioBp : m.disputeRatioBp) : undefined);
        }),
        palette.series[(index + 1) % palette.series.length],
        { borderDash: [4, 3] },
      ),
    ),
    line(words.column("threshold"), insights.points.map(() => threshold), palette.danger, { pointRadius: 0, borderDash: [8, 4], borderWidth: 1.5 }),
  ];
  const config = base(palette, insights.points.map((p) => words.date(p.start)), datasets, { y: percentAxis(words) });
  config.type = "line";
  return config;
}

// Chart.js neither wraps an axis label nor gives it more than part of the chart's width:
// a long meaning ("Nie voor voorsiening gemaak nie (onvoldoende fondse)") would be cut off.
const REASON_LINE_CHARS = 22;

function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

function reasonAxisLabel(code: string, words: ChartWords): string[] {
  const number = bankReasonNumber(code);
  const meaning = wrapWords(words.reasonShort(code), REASON_LINE_CHARS);
  return number ? [number, ...meaning] : meaning;
}

/** What each chart draws; its numbers are the same as its table's (chartTables.ts). */
export function chartConfig(chart: ChartId, insights: Insights, palette: Palette, words: ChartWords): Config {
  const dates = insights.points.map((p) => words.date(p.start));
  switch (chart) {
    case "collected":
      return base(
        palette,
        dates,
        [
          bar(words.column("collectedValue"), insights.points.map((p) => p.collectedCents / 100), palette.series[0], { yAxisID: "y" }),
          line(words.column("collectedCount"), insights.points.map((p) => p.collectedCount), palette.series[1], { yAxisID: "count" }),
        ],
        {
          y: { ticks: { callback: (value: number | string) => words.money(Number(value) * 100) } },
          count: { position: "right", grid: { display: false }, ticks: { precision: 0 } },
        },
      );
    case "successRate": {
      const config = base(palette, dates, [line(words.column("successRate"), insights.points.map((p) => (p.successRateBp === undefined ? null : p.successRateBp / 100)), palette.series[0])], {
        y: { ...percentAxis(words), max: 100 },
      });
      config.type = "line";
      return config;
    }
    case "unpaidReasons": {
      const config = base(
        palette,
        // A bank's number and its meaning on two lines, so a long meaning keeps the bars room.
        insights.unpaidReasons.map((r) => reasonAxisLabel(r.code, words)),
        [bar(words.column("count"), insights.unpaidReasons.map((r) => r.count), palette.series[2])],
        { y: { ticks: { precision: 0 } } },
      );
      if (config.options) {
        config.options.indexAxis = "y";
        config.options.layout = { padding: { left: 4 } };
        config.options.scales = {
          x: { beginAtZero: true, ticks: { color: palette.muted, precision: 0 }, grid: { color: palette.grid } },
          y: { ticks: { color: palette.muted, crossAlign: "far" }, grid: { display: false } },
        };
      }
      return config;
    }
    case "unpaidRatio":
      return ratioChart(insights, "unpaid", palette, words);
    case "disputeRatio":
      return ratioChart(insights, "dispute", palette, words);
    case "forecast":
      return base(
        palette,
        insights.forecast.map((d) => words.date(d.date)),
        [
          bar(words.column("value"), insights.forecast.map((d) => d.cents / 100), palette.series[3], { yAxisID: "y" }),
          line(words.column("count"), insights.forecast.map((d) => d.count), palette.series[1], { yAxisID: "count" }),
        ],
        {
          y: { ticks: { callback: (value: number | string) => words.money(Number(value) * 100) } },
          count: { position: "right", grid: { display: false }, ticks: { precision: 0 } },
        },
      );
  }
}
