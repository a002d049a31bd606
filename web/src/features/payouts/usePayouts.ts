import type { Topic } from "../../live/cache";
import { useLiveQuery, type LiveView } from "../../live/useLiveQuery";
import type { Balance, ErrorCode, Payout, PayoutDetail, PayoutSettings, Query, ReplyBody } from "../../protocol/wire";

export type Loaded<T> = { value: T } | { error: ErrorCode } | null;

// The balance and payouts move with every collection, refund and payout (`FiguresMoved`).
const FOLLOWS: readonly Topic[] = ["payouts"];

function loaded<T>(view: LiveView<T>): Loaded<T> {
  if (view.state === "ready") return { value: view.value };
  if (view.state === "error") return { error: view.code };
  return null;
}

// Projections of the replies, module-level so they stay the same between renders.
const pickBalance = (reply: ReplyBody) => (reply.t === "Balance" ? reply.balance : undefined);
const pickSettings = (reply: ReplyBody) => (reply.t === "PayoutSettings" ? reply.settings : undefined);
const pickList = (reply: ReplyBody) => (reply.t === "Payouts" ? reply.payouts : undefined);
const pickDetail = (reply: ReplyBody) => (reply.t === "Payout" ? reply.detail : undefined);

function usePayoutsQuery<T>(query: Query | null, pick: (reply: ReplyBody) => T | undefined): Loaded<T> {
  return loaded(useLiveQuery(query, { pick, follows: FOLLOWS }));
}

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
