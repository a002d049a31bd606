import { useAtomValue, useSetAtom } from "jotai";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  businessDateAtom,
  entityVersionAtom,
  listVersionAtom,
  paymentUpsertsAtom,
  putTransactions,
  transactionUpsertsAtom,
} from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { Dashboard, ErrorCode } from "../../protocol/wire";

// A test clock month brings several deltas a second: ask again at most this often.
const REFRESH_DELAY_MS = 300;

export type DashboardState = {
  dashboard?: Dashboard;
  error?: ErrorCode;
  /** True while the first answer is on its way. */
  loading: boolean;
  retry: () => void;
};

/**
 * The home figures, asked again (at most every 300 ms) whenever a transaction or payment
 * changes, the business date moves or the data is switched, so they follow without a reload.
 */
export function useDashboard(): DashboardState {
  const client = useLiveClient();
  const setBusinessDate = useSetAtom(businessDateAtom);
  const transactions = useAtomValue(transactionUpsertsAtom).serial;
  const payments = useAtomValue(paymentUpsertsAtom).serial;
  const today = useAtomValue(businessDateAtom);
  const versions = useAtomValue(listVersionAtom);
  const entities = useAtomValue(entityVersionAtom);
  // Tagged with the data version it belongs to: after a switch of merchant or mode it is dropped.
  const [answer, setAnswer] = useState<{ version: number; dashboard?: Dashboard; error?: ErrorCode } | null>(null);
  // Answers can cross: only the newest request's answer is shown.
  const generation = useRef(0);

  const fetchNow = useCallback(() => {
    const mine = ++generation.current;
    client.query({ t: "GetDashboard" }).then(
      (body) => {
        if (mine !== generation.current || body.t !== "Dashboard") return;
        putTransactions(client.store, body.dashboard.recent);
        // Only a tab that knows no date yet takes it from here: while a test clock span plays
        // out, the server's today is already the span's end, and the clock's deltas (which the
        // test clock control waits for) tell how far the play has come.
        setBusinessDate((known) => known ?? body.dashboard.today);
        setAnswer({ version: entities, dashboard: body.dashboard });
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        const error = failure instanceof LiveError ? failure.wire.code : "internal";
        // A failed refresh keeps the figures on screen; only a first load shows the error.
        setAnswer((current) => (current?.version === entities && current.dashboard ? current : { version: entities, error }));
      },
    );
  }, [client, setBusinessDate, entities]);

  // On open, and for the data of another merchant or mode.
  useEffect(fetchNow, [fetchNow]);
  // A refresh planned a moment ago asks with the data as it is when it runs, never the old one.
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
  return { dashboard: current?.dashboard, error: current?.error, loading: !current, retry: fetchNow };
}
