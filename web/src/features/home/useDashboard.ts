import { useAtomValue, useSetAtom, useStore } from "jotai";
import { useEffect, useState } from "react";
import { businessDateAtom, paymentAtom, paymentUpsertsAtom, putTransactions } from "../../live/cache";
import { useLiveClient } from "../../live/context";
import type { Ask } from "../../live/ask";
import { useLiveRead } from "../../live/useLiveQuery";
import type { Dashboard, ErrorCode } from "../../protocol/wire";
import { placeUpcoming, type UpcomingView } from "./upcoming";

export type DashboardState = {
  dashboard?: Dashboard;
  error?: ErrorCode;
  /** True while the first answer is on its way. */
  loading: boolean;
  retry: () => void;
};

// The server's figures, and how many payment deltas this tab had seen when it asked for them:
// a delta after that may not be in the answer yet.
type Answer = { dashboard: Dashboard; paymentsSeen: number };
// The upcoming debits placed in the tab from payment deltas the answer may not have yet.
type Placed = { paymentsSeen: number; view: UpcomingView };

/**
 * The home figures. The server tells every member who reads them when money or a schedule
 * moved (`FiguresMoved`), including members who may not read the payments themselves, so
 * they follow without a reload. A member who reads payments sees a teammate's new debit in
 * "Upcoming collections" as soon as its delta lands: the tab places it while the figures are
 * asked for again, and the server's answer replaces what it placed.
 */
export function useDashboard(): DashboardState {
  const client = useLiveClient();
  const store = useStore();
  const setBusinessDate = useSetAtom(businessDateAtom);
  const view = useLiveRead(
    "dashboard",
    (ask: Ask) => {
      const paymentsSeen = store.get(paymentUpsertsAtom).serial;
      return ask({ t: "GetDashboard" }).then((reply) => (reply.t === "Dashboard" ? { dashboard: reply.dashboard, paymentsSeen } : undefined));
    },
    { follows: ["figures"] },
  );
  const answer: Answer | undefined = view.state === "ready" ? view.value : undefined;
  const dashboard = answer?.dashboard;
  useEffect(() => {
    if (!dashboard) return;
    putTransactions(client.store, dashboard.recent);
    // Only a tab that knows no date yet takes it from here: while a test clock span plays
    // out, the server's today is already the span's end, and the clock's deltas (which the
    // test clock control waits for) tell how far the play has come.
    setBusinessDate((known) => known ?? dashboard.today);
  }, [client, dashboard, setBusinessDate]);

  // Placed while rendering, when a payment delta arrives (React's "adjusting state when a
  // prop changes"): the delta and the upcoming debits it moves show in one paint.
  const payments = useAtomValue(paymentUpsertsAtom);
  const [placed, setPlaced] = useState<Placed | null>(null);
  const [placedFor, setPlacedFor] = useState(payments.serial);
  const ahead = placed && answer && placed.paymentsSeen > answer.paymentsSeen ? placed : null;
  if (answer && placedFor !== payments.serial) {
    setPlacedFor(payments.serial);
    let next: UpcomingView | null =
      payments.serial <= answer.paymentsSeen ? null : (ahead?.view ?? { upcoming: answer.dashboard.upcoming, more: answer.dashboard.upcomingMore });
    for (const id of payments.ids) {
      const payment = store.get(paymentAtom(id));
      next = next && payment ? placeUpcoming(next, payment, payments.before.get(id)) : null;
    }
    // What the tab cannot place waits for the server's answer, already asked for.
    setPlaced(next ? { paymentsSeen: payments.serial, view: next } : null);
  }

  const shown = dashboard && ahead ? { ...dashboard, upcoming: ahead.view.upcoming, upcomingMore: ahead.view.more } : dashboard;
  return {
    dashboard: shown,
    error: view.state === "error" ? view.code : undefined,
    loading: view.state === "loading",
    retry: view.retry,
  };
}
