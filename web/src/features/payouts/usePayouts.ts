import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { payoutsVersionAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { Balance, ErrorCode, Payout, PayoutDetail, PayoutSettings, Query, ReplyBody } from "../../protocol/wire";

export type Loaded<T> = { value: T } | { error: ErrorCode } | null;

/** A query's answer, read again whenever the balance or a payout moves (live from every tab). */
function usePayoutsQuery<T>(query: Query | null, pick: (reply: ReplyBody) => T | undefined): Loaded<T> {
  const client = useLiveClient();
  const version = useAtomValue(payoutsVersionAtom);
  const [loaded, setLoaded] = useState<Loaded<T>>(null);
  const key = query ? JSON.stringify(query) : "";
  useEffect(() => {
    if (!key) return;
    let current = true;
    client.query(JSON.parse(key) as Query).then(
      (reply) => {
        const value = pick(reply);
        if (current) setLoaded(value === undefined ? { error: "internal" } : { value });
      },
      (error: unknown) => {
        if (current) setLoaded({ error: error instanceof LiveError ? error.wire.code : "internal" });
      },
    );
    return () => {
      current = false;
    };
  }, [client, key, pick, version]);
  return loaded;
}

// Projections of the replies, module-level so they stay the same between renders.
const pickBalance = (reply: ReplyBody) => (reply.t === "Balance" ? reply.balance : undefined);
const pickSettings = (reply: ReplyBody) => (reply.t === "PayoutSettings" ? reply.settings : undefined);
const pickList = (reply: ReplyBody) => (reply.t === "Payouts" ? reply.payouts : undefined);
const pickDetail = (reply: ReplyBody) => (reply.t === "Payout" ? reply.detail : undefined);

export function useBalance(): Loaded<Balance> {
  return usePayoutsQuery({ t: "GetBalance" }, pickBalance);
}

export function usePayoutSettings(): Loaded<PayoutSettings> {
  return usePayoutsQuery({ t: "GetPayoutSettings" }, pickSettings);
}

export function usePayoutList(): Loaded<Payout[]> {
  return usePayoutsQuery({ t: "ListPayouts", limit: 100 }, pickList);
}

export function usePayout(payoutId: string | null): Loaded<PayoutDetail> {
  return usePayoutsQuery(payoutId ? { t: "GetPayout", payoutId } : null, pickDetail);
}

/** Rand typed by a person ("1 250,50" or "1250.50") as cents, or null. */
export function parseRand(text: string): number | null {
  const clean = text.replace(/[\sR]/g, "").replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, fraction = ""] = clean.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}
