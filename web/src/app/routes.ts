import type { Section } from "../protocol/wire";
import table from "./routes.json";

// The app's route table. The backend serves index.html for exactly these paths
// (its history fallback) and a real 404 for everything else. A signed-in screen's
// `section` is what a member must read to open it (none: every member may): the menu
// and the server's presence both read it from here.

export type Layout = "auth" | "default" | "none";

// protected: signed-in only; guest: signed-out only; open: anyone.
export type Access = "protected" | "guest" | "open";

export type Screen =
  | "home" | "signup" | "login" | "forgot" | "reset" | "twoFactorBackup"
  | "cards" | "insights" | "mandates" | "mandate" | "customers" | "customer" | "downloadSummary"
  | "profile" | "businessInfo" | "payouts" | "teams" | "team" | "teamInvite" | "emailVerify"
  | "history" | "historyEntry" | "paymentPages" | "oneTime" | "oneTimePayment" | "oneTimeImport"
  | "recurring" | "recurringPayment" | "recurringImport" | "eMandates" | "transactions" | "transaction"
  | "orders" | "integrations" | "tokens" | "webhooks" | "webhook" | "paymentMethods";

export type RouteEntry = { path: string; screen: Screen; layout: Layout; access: Access; section?: Section };

export const routes = table as RouteEntry[];

// Ids and tokens in paths: anything else is a page that does not exist.
export const ROUTE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function paramNames(path: string): string[] {
  return path
    .split("/")
    .filter((part) => part.startsWith(":"))
    .map((part) => part.slice(1));
}

export function takesId(entry: RouteEntry): boolean {
  return paramNames(entry.path).length > 0;
}

export function paramsAreValid(params: Record<string, string | undefined>): boolean {
  return Object.values(params).every((value) => value === undefined || ROUTE_ID.test(value));
}

function matches(entry: RouteEntry, parts: string[]): boolean {
  const pattern = entry.path.split("/").filter(Boolean);
  return (
    pattern.length === parts.length &&
    pattern.every((part, i) => (part.startsWith(":") ? ROUTE_ID.test(parts[i]) : part === parts[i]))
  );
}

// The route a path is on, or undefined for a path the app has no page for. A fixed route
// wins over one with an id in the same place.
export function routeAt(pathname: string): RouteEntry | undefined {
  const parts = pathname.split("/").filter(Boolean);
  const candidates = routes.filter((entry) => matches(entry, parts));
  return candidates.find((entry) => !takesId(entry)) ?? candidates[0];
}

// The path of the record a location shows (for presence), or undefined on list and other pages.
export function recordPath(pathname: string): string | undefined {
  const entry = routeAt(pathname);
  return entry && takesId(entry) ? pathname : undefined;
}

/**
 * The nearest screen at or above `pathname` that shows no one record: where a tab goes when
 * it leaves the business or mode the record it showed belongs to.
 */
export function listPathFor(pathname: string): string {
  const parts = pathname.split("/").filter(Boolean);
  for (let length = parts.length; length > 0; length -= 1) {
    const candidate = `/${parts.slice(0, length).join("/")}`;
    const entry = routeAt(candidate);
    if (entry && !takesId(entry)) return candidate;
  }
  return "/";
}
