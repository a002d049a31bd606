import { useSetAtom } from "jotai";
import { useState } from "react";
import { useNavigate } from "../../components/placeLinks";
import { signOut } from "../../features/auth/api";
import { sessionAtom } from "../../features/auth/session";
import { liveClient } from "../liveClient";

/**
 * Signs this browser out and goes to the sign-in page, or to `then` (a page that also shows to
 * guests, such as an invite); `busy` while the server is asked.
 */
export function useSignOut(then = "/auth/login"): { busy: boolean; leave: () => Promise<void> } {
  const setSession = useSetAtom(sessionAtom);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  async function leave() {
    setBusy(true);
    try {
      await signOut();
    } catch {
      // The server may be out of reach; this tab forgets the session all the same.
    }
    liveClient.stop();
    setSession({ status: "unauthenticated", user: null, lastRefreshed: Date.now(), signedOut: true });
    setBusy(false);
    navigate(then, { replace: true });
  }

  return { busy, leave };
}
