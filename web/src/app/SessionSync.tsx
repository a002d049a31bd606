import { useAtomValue } from "jotai";
import { useEffect } from "react";
import { sessionAtom } from "../features/auth/session";
import { useRefreshSession } from "../features/auth/useSession";
import { liveClient } from "./liveClient";

/** Reads the session at start and whenever the tab is shown again; runs the socket while signed in. */
export function SessionSync() {
  const refresh = useRefreshSession();
  const session = useAtomValue(sessionAtom);
  const userId = session.user?.id;

  useEffect(() => {
    void refresh();
    const onVisible = () => {
      if (document.visibilityState === "visible") void refresh();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [refresh]);

  useEffect(() => {
    if (!userId) return;
    liveClient.start();
    return () => liveClient.stop();
  }, [userId]);

  return null;
}
