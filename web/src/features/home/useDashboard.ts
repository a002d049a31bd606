import { useSetAtom } from "jotai";
import { useEffect } from "react";
import { businessDateAtom, putTransactions } from "../../live/cache";
import { useLiveClient } from "../../live/context";
import { useLiveQuery } from "../../live/useLiveQuery";
import type { Dashboard, ErrorCode, ReplyBody } from "../../protocol/wire";

export type DashboardState = {
  dashboard?: Dashboard;
  error?: ErrorCode;
  /** True while the first answer is on its way. */
  loading: boolean;
  retry: () => void;
};

const pickDashboard = (reply: ReplyBody) => (reply.t === "Dashboard" ? reply.dashboard : undefined);

/**
 * The home figures. The server tells every member who reads them when money or a schedule
 * moved (`FiguresMoved`), including members who may not read the payments themselves, so
 * they follow without a reload.
 */
export function useDashboard(): DashboardState {
  const client = useLiveClient();
  const setBusinessDate = useSetAtom(businessDateAtom);
  const view = useLiveQuery({ t: "GetDashboard" }, { pick: pickDashboard, follows: ["figures"] });
  const dashboard = view.state === "ready" ? view.value : undefined;
  useEffect(() => {
    if (!dashboard) return;
    putTransactions(client.store, dashboard.recent);
    // Only a tab that knows no date yet takes it from here: while a test clock span plays
    // out, the server's today is already the span's end, and the clock's deltas (which the
    // test clock control waits for) tell how far the play has come.
    setBusinessDate((known) => known ?? dashboard.today);
  }, [client, dashboard, setBusinessDate]);
  return {
    dashboard,
    error: view.state === "error" ? view.code : undefined,
    loading: view.state === "loading",
    retry: view.retry,
  };
}
