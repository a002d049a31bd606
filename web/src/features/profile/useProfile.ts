import { useAtomValue } from "jotai";
import { useCallback, useEffect, useState } from "react";
import { identityAtom } from "../../live/atoms";
import { entityVersionAtom, profileAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { ErrorCode, Profile } from "../../protocol/wire";

/** The user must turn two-factor sign-in on before anything but the profile opens. */
export function mustSetUpTwoFactor(profile: Profile | undefined): boolean {
  return Boolean(profile && profile.twoFactorRequired && !profile.twoFactorEnabled);
}

/** Asks for the profile again; the reply fills the cache. */
export function useRefreshProfile(): () => Promise<void> {
  const client = useLiveClient();
  return useCallback(async () => {
    await client.query({ t: "GetProfile" }).catch(() => undefined);
  }, [client]);
}

/**
 * Keeps the profile current while signed in: on each (re)opened merchant, after a resync,
 * and when the tab is shown again (a link followed in another tab may have changed it).
 * Returns the last failure, for screens that must say why they have nothing to show.
 */
export function useProfileSync(): ErrorCode | null {
  const client = useLiveClient();
  const identity = useAtomValue(identityAtom);
  const version = useAtomValue(entityVersionAtom);
  const opened = identity ? `${identity.user.id}\u0000${identity.merchant.id}\u0000${identity.mode}` : null;
  const [failure, setFailure] = useState<{ key: string; code: ErrorCode } | null>(null);
  const key = `${opened}\u0000${version}`;

  useEffect(() => {
    if (!opened) return;
    let current = true;
    const load = () =>
      client.query({ t: "GetProfile" }).then(
        () => current && setFailure(null),
        (error: unknown) => current && setFailure({ key, code: error instanceof LiveError ? error.wire.code : "internal" }),
      );
    void load();
    const onVisible = () => {
      if (document.visibilityState === "visible") void load();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      current = false;
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [client, opened, key]);

  return failure?.key === key ? failure.code : null;
}

export function useProfile(): Profile | undefined {
  return useAtomValue(profileAtom);
}
