import type { InsightBucket, PaymentMethod } from "../../protocol/wire";

/** How far back the screen looks from the business date. */
export const PERIODS = ["30", "90", "365"] as const;
export type Period = (typeof PERIODS)[number];
export const BUCKETS: readonly InsightBucket[] = ["day", "week", "month"];
export const METHODS: readonly PaymentMethod[] = ["debicheck", "registered_mandate", "eft_debit_order", "card", "instant_eft"];

/** The screen's filters as the address bar keeps them (beside the tab's business and mode). */
export type InsightsView = {
  period: Period;
  bucket: InsightBucket;
  method?: PaymentMethod;
};

function pick<T extends string>(value: string | null, allowed: readonly T[]): T | undefined {
  return allowed.find((option) => option === value);
}

export function readInsightsView(params: URLSearchParams): InsightsView {
  return {
    period: pick(params.get("period"), PERIODS) ?? "30",
    bucket: pick(params.get("bucket"), BUCKETS) ?? "day",
    method: pick(params.get("method"), METHODS),
  };
}

export function writeInsightsView(view: InsightsView): URLSearchParams {
  const params = new URLSearchParams();
  params.set("period", view.period);
  params.set("bucket", view.bucket);
  if (view.method) params.set("method", view.method);
  return params;
}

/** The first and last day of the period ending on `today` (both counted). */
export function periodRange(today: string, period: Period): { from: string; to: string } {
  const end = new Date(`${today}T00:00:00Z`);
  const start = new Date(end.getTime() - (Number(period) - 1) * 86_400_000);
  return { from: start.toISOString().slice(0, 10), to: today };
}
