import type { PaymentMethod, SortOrder } from "../protocol/wire";

// The filters every collections list (payments, mandates, transactions) offers, as the
// address bar holds them: a view can be bookmarked, shared and survives a reload.

export const PAYMENT_METHODS: readonly PaymentMethod[] = ["debicheck", "registered_mandate", "eft_debit_order", "card", "instant_eft"];

export const SORT_ORDERS: readonly SortOrder[] = ["newest", "oldest", "amount_high", "amount_low"];

/** One list's view; amounts stay as typed (rand) so the field shows what the merchant wrote. */
export type ListView<S extends string> = {
  status?: S;
  method?: PaymentMethod;
  from?: string;
  to?: string;
  min: string;
  max: string;
  search: string;
  sort: SortOrder;
  /** Lists of records that can be archived show either the archived or the others. */
  archived?: boolean;
};

export type AmountField = "min" | "max";

export function emptyView<S extends string>(): ListView<S> {
  return { min: "", max: "", search: "", sort: "newest" };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(list: readonly T[], value: string | null): T | undefined {
  return list.find((item) => item === value);
}

/** A real calendar date written `YYYY-MM-DD`. */
export function isCalendarDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const [year, month, day] = text.split("-").map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function dateOf(value: string | null): string | undefined {
  return value && isCalendarDate(value) ? value : undefined;
}

/** Reads a bookmarked or shared address; anything it does not understand is left out. */
export function readListView<S extends string>(params: URLSearchParams, statuses: readonly S[]): ListView<S> {
  return {
    status: oneOf(statuses, params.get("status")),
    method: oneOf(PAYMENT_METHODS, params.get("method")),
    from: dateOf(params.get("from")),
    to: dateOf(params.get("to")),
    min: params.get("min") ?? "",
    max: params.get("max") ?? "",
    search: params.get("q") ?? "",
    sort: oneOf(SORT_ORDERS, params.get("sort")) ?? "newest",
    ...(params.get("archived") === "1" ? { archived: true } : {}),
  };
}

/** The address of a view: empty values and the default order stay out, so links stay short. */
export function writeListView<S extends string>(view: ListView<S>): URLSearchParams {
  const params = new URLSearchParams();
  const put = (key: string, value: string | undefined) => {
    if (value) params.set(key, value);
  };
  put("q", view.search);
  put("status", view.status);
  put("method", view.method);
  put("from", view.from);
  put("to", view.to);
  put("min", view.min);
  put("max", view.max);
  if (view.sort !== "newest") params.set("sort", view.sort);
  if (view.archived) params.set("archived", "1");
  return params;
}

const RAND = /^(\d{1,10})(?:[.,](\d{1,2}))?$/;

/**
 * Rand as a merchant types it ("150", "150.5", "1 250,00", "R99") in whole cents, without
 * floating point; undefined for an empty field, "invalid" for anything else.
 */
export function randToCents(text: string): number | undefined | "invalid" {
  const compact = text.replace(/[\s\u00a0\u202f]/g, "").replace(/^R/i, "");
  if (compact === "") return undefined;
  const match = RAND.exec(compact);
  if (!match) return "invalid";
  const [, whole, fraction = ""] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** Cents as a form writes rand back: "1250.50", "99", no grouping, so it parses again. */
export function centsToRand(cents: number): string {
  const whole = Math.trunc(cents / 100);
  const rest = Math.abs(cents % 100);
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, "0")}`;
}

/** What the payment and transaction filters share on the wire. */
export type CommonFilter<S extends string> = {
  status?: S;
  method?: PaymentMethod;
  from?: string;
  to?: string;
  minCents?: number;
  maxCents?: number;
  search?: string;
};

export type ListRequest<S extends string> = { filter: CommonFilter<S>; sort: SortOrder; invalid: AmountField[] };

/** The server-side filter of a view; an amount that is not a number is reported and left out. */
export function listRequest<S extends string>(view: ListView<S>): ListRequest<S> {
  const invalid: AmountField[] = [];
  const amount = (field: AmountField) => {
    const cents = randToCents(view[field]);
    if (cents === "invalid") {
      invalid.push(field);
      return undefined;
    }
    return cents;
  };
  const search = view.search.trim();
  const filter: CommonFilter<S> = {
    status: view.status,
    method: view.method,
    from: view.from,
    to: view.to,
    minCents: amount("min"),
    maxCents: amount("max"),
    search: search || undefined,
  };
  // Keys with no value stay off the wire.
  for (const key of Object.keys(filter) as (keyof CommonFilter<S>)[]) if (filter[key] === undefined) delete filter[key];
  return { filter, sort: view.sort, invalid };
}

/** True when the view narrows the list (so an empty answer means "no matches", not "nothing yet"). */
export function isFiltered<S extends string>(view: ListView<S>): boolean {
  return writeListView({ ...view, sort: "newest" }).size > 0;
}

/** How many of each related list (a customer's mandates) a record page shows before "load more". */
export const RELATED_PAGE_SIZE = 10;
