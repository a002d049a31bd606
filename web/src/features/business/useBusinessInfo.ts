import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { identityAtom } from "../../live/atoms";
import { businessInfoAtom, entityVersionAtom, topicVersionsAtom, twoFactorRequiredAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { BusinessInfo, ErrorCode } from "../../protocol/wire";

export type BusinessInfoView =
  | { state: "loading" }
  | { state: "ready"; info: BusinessInfo; twoFactorRequired: boolean }
  | { state: "error"; code: ErrorCode };

/** The open merchant's business info from the cache: fetched on open and after a resync; deltas keep it current. */
export function useBusinessInfo(): BusinessInfoView {
  const client = useLiveClient();
  const info = useAtomValue(businessInfoAtom);
  const required = useAtomValue(twoFactorRequiredAtom);
  const merchant = useAtomValue(identityAtom)?.merchant.id ?? "";
  const key = `${merchant}\u0000${useAtomValue(entityVersionAtom)}\u0000${useAtomValue(topicVersionsAtom).business_info}`;
  const [failure, setFailure] = useState<{ key: string; code: ErrorCode } | null>(null);

  useEffect(() => {
    let current = true;
    client.query({ t: "GetBusinessInfo" }).catch((error: unknown) => {
      if (current) setFailure({ key, code: error instanceof LiveError ? error.wire.code : "internal" });
    });
    return () => {
      current = false;
    };
  }, [client, key]);

  if (info) return { state: "ready", info, twoFactorRequired: required ?? false };
  if (failure?.key === key) return { state: "error", code: failure.code };
  return { state: "loading" };
}
