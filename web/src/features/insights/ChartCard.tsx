import { lazy, Suspense, useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { downloadCsv } from "../../components/downloadCsv";
import { formatBasisPoints, formatBusinessDate, formatMoney } from "../../components/format";
import type { Insights } from "../../protocol/wire";
import type { Palette } from "./Chart";
import { chartConfig, type ChartWords } from "./chartConfigs";
import { chartTable, csvFileName, tableCsv, type Cell, type ChartId } from "./chartTables";

// The chart library arrives in a chunk of its own, after the screen's first paint: the
// figures' tables and the filters never wait for it, and no other screen loads it.
const Chart = lazy(async () => ({ default: (await import("./Chart")).Chart }));

function CellText({ cell, words }: { cell: Cell; words: ChartWords }) {
  switch (cell.kind) {
    case "date":
      return <>{words.date(cell.value)}</>;
    case "money":
      return <>{words.money(cell.cents)}</>;
    case "count":
      return <>{cell.value}</>;
    case "ratio":
      return <>{cell.bp === null ? "—" : words.percent(cell.bp)}</>;
    case "text":
      return <>{cell.value}</>;
  }
}

/** The screen's words and formats in the current language. */
export function useChartWords(): ChartWords {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(
    () => ({
      column: (key: string) => t(`insights.column.${key}` as "insights.column.period"),
      method: (method) => t(`collections.method.${method}`),
      reason: (code) => (code === "rejected" ? t("insights.rejected") : t(`transactions.unpaidCode.${code}` as "transactions.unpaidCode.02", { defaultValue: t("transactions.detail.unknownCode") })),
      reasonShort: (code) =>
        code === "rejected" ? t("insights.rejectedShort") : t(`collections.unpaidCode.${code}` as "collections.unpaidCode.02", { defaultValue: code }),
      date: (iso) => formatBusinessDate(iso, language),
      money: (cents) => formatMoney(cents, language),
      percent: (bp) => formatBasisPoints(bp, language),
    }),
    [t, language],
  );
}

type ChartCardProps = { chart: ChartId; insights: Insights; stale: boolean; note?: string };

/** One chart with its title, a switch to its numbers as a table, and a CSV of them. */
export function ChartCard({ chart, insights, stale, note }: ChartCardProps) {
  const { t } = useTranslation();
  const words = useChartWords();
  const [asTable, setAsTable] = useState(false);
  const table = useMemo(() => chartTable(chart, insights, words), [chart, insights, words]);
  const config = useCallback((palette: Palette) => chartConfig(chart, insights, palette, words), [chart, insights, words]);
  const title = t(`insights.chart.${chart}`);
  const empty = table.rows.length === 0;
  return (
    <section className={stale ? "card insights-card is-stale" : "card insights-card"} data-testid={`chart-${chart}`} aria-busy={stale || undefined}>
      <div className="insights-card-head">
        <h2 className="card-title">{title}</h2>
        <div className="insights-card-actions">
          <Button className="btn-sm" variant="ghost" onClick={() => setAsTable((on) => !on)} aria-pressed={asTable} data-testid={`chart-${chart}-toggle`}>
            {asTable ? t("insights.showChart") : t("insights.showTable")}
          </Button>
          <Button className="btn-sm" variant="ghost" onClick={() => downloadCsv(tableCsv(table), csvFileName(chart, insights))} data-testid={`chart-${chart}-csv`}>
            {t("insights.downloadCsv")}
          </Button>
        </div>
      </div>
      {note ? <p className="insights-note">{note}</p> : null}
      {empty ? (
        <p className="insights-empty" data-testid={`chart-${chart}-empty`}>
          {t(`insights.empty.${chart === "forecast" ? "forecast" : chart === "unpaidReasons" ? "reasons" : "period"}`)}
        </p>
      ) : asTable ? (
        <div className="insights-table-wrap">
          <table className="table table-compact" data-testid={`chart-${chart}-table`}>
            <caption className="sr-only-text">{title}</caption>
            <thead>
              <tr>
                {table.columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, index) => (
                <tr key={index}>
                  {row.map((cell, column) => (
                    <td key={column} className={cell.kind === "date" ? "cell-nowrap" : cell.kind === "text" ? undefined : "cell-amount"}>
                      <CellText cell={cell} words={words} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <Suspense fallback={<div className="insights-canvas" aria-busy="true" />}>
          <Chart config={config} label={title} testId={`chart-${chart}-canvas`} />
        </Suspense>
      )}
    </section>
  );
}
