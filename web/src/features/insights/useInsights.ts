import { useAtomValue, useSetAtom } from "jotai";
import { useEffect, useState } from "react";
import { businessDateAtom, entityVersionAtom } from "../../live/cache";
import { useLiveQuery } from "../../live/useLiveQuery";
import type { ErrorCode, InsightBucket, Insights, PaymentMethod, ReplyBody } from "../../protocol/wire";

export type InsightsQuery = { from: string; to: string; bucket: InsightBucket; method?: PaymentMethod };

export type InsightsState = {
  insights?: Insights;
  error?: ErrorCode;
  loading: boolean;
  retry: () => void;
};

const pickInsights = (reply: ReplyBody) => (reply.t === "Insights" ? reply.insights : undefined);

/** The insights figures for the filters; they follow every change that moves money (`FiguresMoved`). */
export function useInsights(query: InsightsQuery | null): InsightsState {
  const setBusinessDate = useSetAtom(businessDateAtom);
  const view = useLiveQuery(
    query ? { t: "GetInsights", from: query.from, to: query.to, bucket: query.bucket, ...(query.method ? { method: query.method } : {}) } : null,
    { pick: pickInsights, follows: ["figures"] },
  );
  // The previous filters' figures stay on screen (marked stale) until the new ones arrive;
  // never another business's or mode's.
  const data = useAtomValue(entityVersionAtom);
  const insights = view.state === "ready" ? view.value : undefined;
  const [shown, setShown] = useState<{ data: number; insights: Insights } | null>(null);
  // Kept while rendering (React's way to hold on to a value of an earlier render).
  if (insights && (shown?.insights !== insights || shown.data !== data)) setShown({ data, insights });
  const previous = shown?.data === data ? shown.insights : undefined;
  useEffect(() => {
    // Only a tab that knows no date yet takes it from here (see useDashboard).
    if (insights) setBusinessDate((known) => known ?? insights.today);
  }, [insights, setBusinessDate]);
  return {
    insights: view.state === "error" ? undefined : (insights ?? previous),
    error: view.state === "error" ? view.code : undefined,
    loading: view.state === "loading",
    retry: view.retry,
  };
}
