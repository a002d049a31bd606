import { useAtomValue, useSetAtom } from "jotai";
import { useCallback, useEffect, useRef, useState } from "react";
import { businessDateAtom, entityVersionAtom, listVersionAtom, paymentUpsertsAtom, transactionUpsertsAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { ErrorCode, InsightBucket, Insights, PaymentMethod } from "../../protocol/wire";

// A test clock month brings several deltas a second: ask again at most this often.
const REFRESH_DELAY_MS = 300;

export type InsightsQuery = { from: string; to: string; bucket: InsightBucket; method?: PaymentMethod };

export type InsightsState = {
  insights?: Insights;
  error?: ErrorCode;
  loading: boolean;
  retry: () => void;
};

/**
 * The insights figures for the filters, asked again (at most every 300 ms) whenever a
 * transaction or payment changes, the business date moves or the data is switched: the
 * socket already delivers those changes, so the charts follow without a reload.
 */
export function useInsights(query: InsightsQuery | null): InsightsState {
  const client = useLiveClient();
  const setBusinessDate = useSetAtom(businessDateAtom);
  const transactions = useAtomValue(transactionUpsertsAtom).serial;
  const payments = useAtomValue(paymentUpsertsAtom).serial;
  const today = useAtomValue(businessDateAtom);
  const versions = useAtomValue(listVersionAtom);
  const entities = useAtomValue(entityVersionAtom);
  const key = query ? `${query.from}|${query.to}|${query.bucket}|${query.method ?? ""}` : "";
  const [answer, setAnswer] = useState<{ key: string; version: number; insights?: Insights; error?: ErrorCode } | null>(null);
  // Answers can cross: only the newest request's answer is shown.
  const generation = useRef(0);

  const fetchNow = useCallback(() => {
    if (!query) return;
    const mine = ++generation.current;
    const { from, to, bucket, method } = query;
    client.query({ t: "GetInsights", from, to, bucket, ...(method ? { method } : {}) }).then(
      (body) => {
        if (mine !== generation.current || body.t !== "Insights") return;
        // Only a tab that knows no date yet takes it from here (see useDashboard).
        setBusinessDate((known) => known ?? body.insights.today);
        setAnswer({ key, version: entities, insights: body.insights });
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        const error = failure instanceof LiveError ? failure.wire.code : "internal";
        // A failed refresh keeps the figures on screen; only a first load shows the error.
        setAnswer((current) => (current?.key === key && current.version === entities && current.insights ? current : { key, version: entities, error }));
      },
    );
    // The query's parts are in `key`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, key, entities, setBusinessDate]);

  useEffect(fetchNow, [fetchNow]);
  const latestFetch = useRef(fetchNow);
  useEffect(() => {
    latestFetch.current = fetchNow;
  });

  const trigger = `${transactions}|${payments}|${today}|${versions.transaction}|${versions.payment}`;
  const handled = useRef(trigger);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (handled.current === trigger) return;
    handled.current = trigger;
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latestFetch.current();
    }, REFRESH_DELAY_MS);
  }, [trigger]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const current = answer?.version === entities ? answer : null;
  // The previous filters' figures stay on screen (marked stale) until the new ones arrive.
  return { insights: current?.insights, error: current?.error, loading: !current || current.key !== key, retry: fetchNow };
}
