import { useAtomValue, useStore } from "jotai";
import { useCallback, useEffect } from "react";
import { identityAtom } from "../../live/atoms";
import { accountMoved, profileAtom } from "../../live/cache";
import { useRecord } from "../../live/useRecord";
import type { ErrorCode, Profile } from "../../protocol/wire";

/** The user must turn two-factor sign-in on before anything but the profile opens. */
export function mustSetUpTwoFactor(profile: Profile | undefined): boolean {
  return Boolean(profile && profile.twoFactorRequired && !profile.twoFactorEnabled);
}

/** After a change to the user's own account: the profile and the sessions are read again. */
export function useAccountChanged(): () => void {
  const store = useStore();
  return useCallback(() => accountMoved(store), [store]);
}

/**
 * Keeps the profile current while signed in: on each (re)opened merchant, after a resync,
 * after the tab's own account changes and when the tab is shown again (a link followed in
 * another tab may have changed it). Returns the failure while there is no profile to show,
 * for screens that must say why they have nothing to show.
 */
export function useProfileSync(): ErrorCode | null {
  const identity = useAtomValue(identityAtom);
  const opened = identity ? `${identity.user.id}\u0000${identity.merchant.id}\u0000${identity.mode}` : "";
  const view = useRecord(profileAtom, { t: "GetProfile" }, opened, "account");
  const changed = useAccountChanged();

  useEffect(() => {
    if (!opened) return;
    const onVisible = () => {
      if (document.visibilityState === "visible") changed();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [opened, changed]);

  return view.state === "error" ? view.code : null;
}

export function useProfile(): Profile | undefined {
  return useAtomValue(profileAtom);
}
