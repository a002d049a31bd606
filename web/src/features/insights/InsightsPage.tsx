import { useAtomValue } from "jotai";
import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { formatBasisPoints, formatBusinessDate, todayInSouthAfrica } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { Segmented } from "../../components/Segmented";
import { PageSpinner } from "../../components/Spinner";
import { useAddressView } from "../../components/useAddressView";
import { identityAtom } from "../../live/atoms";
import { businessDateAtom } from "../../live/cache";
import type { PaymentMethod } from "../../protocol/wire";
import { ChartCard } from "./ChartCard";
import { CHARTS } from "./chartTables";
import "./insights.css";
import { useInsights } from "./useInsights";
import { BUCKETS, METHODS, PERIODS, periodRange, readInsightsView, writeInsightsView, type InsightsView } from "./view";

export function InsightsPage() {
  const { t, i18n } = useTranslation();
  const identity = useAtomValue(identityAtom);
  const businessDate = useAtomValue(businessDateAtom);
  const { view, change } = useAddressView(readInsightsView, writeInsightsView);
  const update = useCallback((patch: Partial<InsightsView>) => change((latest) => ({ ...latest, ...patch })), [change]);

  const today = businessDate ?? todayInSouthAfrica();
  const range = useMemo(() => periodRange(today, view.period), [today, view.period]);
  const { insights, error, loading, retry } = useInsights({ ...range, bucket: view.bucket, method: view.method });
  const testMode = identity?.mode === "test";
  const subtitle = t(testMode ? "insights.subtitleTest" : "insights.subtitle", { date: formatBusinessDate(today, i18n.language) });
  const summary = `/download/summary?${new URLSearchParams({ from: range.from, to: range.to }).toString()}`;

  return (
    <section className="page" data-testid="insights-page">
      <PageHeader
        title={t("insights.title")}
        subtitle={subtitle}
        actions={
          <Link to={summary} className="btn btn-secondary" data-testid="insights-summary-link">
            {t("insights.summaryLink")}
          </Link>
        }
      />
      <div className="insights-filters" data-testid="insights-filters">
        <Segmented
          label={t("insights.filter.period")}
          value={view.period}
          options={PERIODS.map((period) => ({ value: period, label: t(`insights.period.${period}`) }))}
          onChange={(period) => update({ period })}
          testId="insights-period"
        />
        <Segmented
          label={t("insights.filter.bucket")}
          value={view.bucket}
          options={BUCKETS.map((bucket) => ({ value: bucket, label: t(`insights.bucket.${bucket}`) }))}
          onChange={(bucket) => update({ bucket })}
          testId="insights-bucket"
        />
        <label className="field">
          <span className="field-label">{t("insights.filter.method")}</span>
          <select
            className="input select"
            value={view.method ?? ""}
            onChange={(event) => update({ method: (event.target.value || undefined) as PaymentMethod | undefined })}
            data-testid="insights-method"
          >
            <option value="">{t("insights.allMethods")}</option>
            {METHODS.map((method) => (
              <option key={method} value={method}>
                {t(`collections.method.${method}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {loading && !insights ? <PageSpinner label={t("app.loading")} /> : null}
      {error && !insights ? (
        <Alert testId="insights-error">
          {t(`errors.${error}`)}{" "}
          <Button variant="ghost" className="btn-sm" onClick={retry}>
            {t("home.retry")}
          </Button>
        </Alert>
      ) : null}
      {insights ? (
        <div className="insights-grid">
          {CHARTS.map((chart) => (
            <ChartCard
              key={chart}
              chart={chart}
              insights={insights}
              stale={loading}
              note={
                chart === "unpaidRatio" || chart === "disputeRatio"
                  ? t(`insights.note.${chart}`, {
                      threshold: formatBasisPoints(chart === "unpaidRatio" ? insights.unpaidThresholdBp : insights.disputeThresholdBp, i18n.language),
                    })
                  : chart === "forecast" || chart === "successRate"
                    ? t(`insights.note.${chart}`)
                    : undefined
              }
            />
          ))}
        </div>
      ) : null}
    </section>
  );
}
