import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import type { ErrorCode, PaymentMethodSettings } from "../protocol/wire";
import { entityVersionAtom, paymentMethodSettingsAtom } from "./cache";
import { LiveError } from "./client";
import { useLiveClient } from "./context";

export type SettingsView = { state: "loading" } | { state: "ready"; settings: PaymentMethodSettings } | { state: "error"; code: ErrorCode };

/** The merchant's payment method switches and DebiCheck defaults, asked for on open; deltas keep them current. */
export function usePaymentMethodSettings(): SettingsView {
  const client = useLiveClient();
  const settings = useAtomValue(paymentMethodSettingsAtom);
  const version = useAtomValue(entityVersionAtom);
  const [failure, setFailure] = useState<{ version: number; code: ErrorCode } | null>(null);

  useEffect(() => {
    let current = true;
    client.query({ t: "GetPaymentMethodSettings" }).catch((error: unknown) => {
      if (current) setFailure({ version, code: error instanceof LiveError ? error.wire.code : "internal" });
    });
    return () => {
      current = false;
    };
  }, [client, version]);

  if (settings) return { state: "ready", settings };
  if (failure?.version === version) return { state: "error", code: failure.code };
  return { state: "loading" };
}
