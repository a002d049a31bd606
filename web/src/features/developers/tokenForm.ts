import type { Access, Permissions } from "../../protocol/wire";

// The sections a token can be granted, in the order the team roles list them.
export const TOKEN_SECTIONS: readonly (keyof Permissions)[] = [
  "customers",
  "mandates",
  "payments",
  "imports",
  "payPages",
  "transactions",
  "orders",
  "refunds",
  "exports",
  "payouts",
  "insights",
  "developers",
  "team",
  "history",
  "settings",
];

const RANK: Record<Access, number> = { none: 0, read: 1, write: 2 };

/** The accesses a member may hand out on a section: none up to their own (the server refuses more). */
export function accessChoices(own: Access): Access[] {
  return (["none", "read", "write"] as const).filter((access) => RANK[access] <= RANK[own]);
}

export function noAccess(): Permissions {
  return Object.fromEntries(TOKEN_SECTIONS.map((section) => [section, "none"])) as Permissions;
}

/** The allow-list as typed (commas, spaces or lines between entries), without blanks. */
export function addressList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/**
 * The end of a chosen expiry day (`YYYY-MM-DD`) in South Africa, where the business day runs;
 * none for an empty field (the token never expires).
 */
export function expiryOf(day: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const at = Date.parse(`${day}T23:59:59+02:00`);
  return Number.isNaN(at) ? undefined : at;
}

/** What a token may do, shortest first: the sections it can write, then those it can only read. */
export function scopeSummary(permissions: Permissions): { write: (keyof Permissions)[]; read: (keyof Permissions)[] } {
  return {
    write: TOKEN_SECTIONS.filter((section) => permissions[section] === "write"),
    read: TOKEN_SECTIONS.filter((section) => permissions[section] === "read"),
  };
}
