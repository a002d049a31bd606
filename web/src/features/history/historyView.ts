import type { HistoryAction, HistoryDetail, HistoryEntry, HistoryFilter, HistoryRecordKind } from "../../protocol/wire";

export const HISTORY_ACTIONS: readonly HistoryAction[] = [
  "created",
  "updated",
  "removed",
  "bulk_changed",
  "revoked",
  "ownership_transferred",
  "signed_in",
  "sign_in_failed",
  "two_factor_enabled",
  "two_factor_disabled",
];

// The kinds of record the history names (the server's `HistoryRecordKind`), in the order the filter lists them.
export const RECORD_KINDS: readonly HistoryRecordKind[] = [
  "customer",
  "bank_account",
  "card",
  "mandate",
  "e_mandate_request",
  "payment",
  "transaction",
  "import",
  "pay_page",
  "order",
  "webhook_endpoint",
  "api_token",
  "member",
  "invite",
  "role",
  "business_info",
  "payment_method_settings",
  "payout",
  "payout_settings",
  "two_factor_policy",
  "business_clock",
  "account",
];

export type RecordKind = HistoryRecordKind;

export function isRecordKind(kind: string): kind is RecordKind {
  return (RECORD_KINDS as readonly string[]).includes(kind);
}

/** The history screen's filters as the address bar keeps them: dates are YYYY-MM-DD. */
export type HistoryView = { person: string; record: string; action: string; from: string; to: string };

const KEYS = ["person", "record", "action", "from", "to"] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function readHistoryView(params: URLSearchParams): HistoryView {
  const get = (key: string) => params.get(key) ?? "";
  const date = (key: string) => (DATE.test(get(key)) ? get(key) : "");
  return {
    person: get("person"),
    record: isRecordKind(get("record")) ? get("record") : "",
    action: (HISTORY_ACTIONS as readonly string[]).includes(get("action")) ? get("action") : "",
    from: date("from"),
    to: date("to"),
  };
}

export function writeHistoryView(view: HistoryView): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of KEYS) if (view[key]) params.set(key, view[key]);
  return params;
}

export const EMPTY_VIEW: HistoryView = { person: "", record: "", action: "", from: "", to: "" };

// A calendar day in the browser's time zone: from its first millisecond to the next day's.
function dayStart(date: string, plusDays = 0): number {
  const [year, month, day] = date.split("-").map(Number);
  return new Date(year, month - 1, day + plusDays).getTime();
}

/** The query's filter: `to` includes its whole day. */
export function historyFilter(view: HistoryView): HistoryFilter {
  return {
    person: view.person || undefined,
    recordKind: view.record || undefined,
    action: (view.action || undefined) as HistoryAction | undefined,
    from: view.from ? dayStart(view.from) : undefined,
    to: view.to ? dayStart(view.to, 1) : undefined,
  };
}

/** Whether a live entry belongs in a list with this filter (the server decides for listed ones). */
export function matchesFilter(entry: HistoryEntry, filter: HistoryFilter): boolean {
  if (filter.person && !(entry.actorKind === "user" && entry.actorId === filter.person)) return false;
  if (filter.recordKind && entry.recordKind !== filter.recordKind) return false;
  if (filter.action && entry.action !== filter.action) return false;
  if (filter.from !== undefined && entry.at < filter.from) return false;
  if (filter.to !== undefined && entry.at >= filter.to) return false;
  return true;
}

/** A field's value (JSON text) after the change, or before it when the record is gone. */
export function fieldValue(detail: HistoryDetail, field: string): unknown {
  const change = detail.changes.find((c) => c.field === field);
  const text = change?.after ?? change?.before;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Where the entry's record is shown, when the app has a page for it. */
export function recordPath(detail: HistoryDetail): string | undefined {
  const { recordKind, recordId } = detail.entry;
  const id = recordId ?? "";
  const kind = fieldValue(detail, "kind");
  switch (recordKind) {
    case "customer":
      return `/customers/${id}`;
    case "bank_account": {
      const customer = fieldValue(detail, "customerId");
      return typeof customer === "string" ? `/customers/${customer}` : undefined;
    }
    case "mandate":
      return `/mandates/${id}`;
    case "payment":
      return kind === "recurring" ? `/payments/recurring/${id}` : `/payments/one-time/${id}`;
    case "import":
      return kind === "recurring" ? `/payments/recurring/imports/${id}` : `/payments/one-time/imports/${id}`;
    case "transaction":
      return `/payments/transactions/${id}`;
    case "pay_page":
      return "/payments/pages";
    case "order":
      return "/commerce/orders";
    case "card":
      return "/cards";
    case "e_mandate_request":
      return "/payments/e-mandates";
    case "webhook_endpoint":
      return `/developers/webhooks/${id}`;
    case "api_token":
      return "/developers/tokens";
    case "member":
      return `/account/teams/${id}`;
    case "invite":
    case "role":
      return "/account/teams";
    case "business_info":
    case "two_factor_policy":
      return "/account/business-info";
    case "payment_method_settings":
      return "/settings/payment-methods";
    case "payout":
    case "payout_settings":
      return "/account/payouts";
    default:
      return undefined;
  }
}
