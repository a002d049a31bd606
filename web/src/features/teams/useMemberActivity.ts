import { useCallback } from "react";
import { useHistoryPages } from "../../live/useHistoryPages";
import type { ErrorCode, HistoryEntry } from "../../protocol/wire";

/** How many of a member's latest entries their page shows; the history has the rest. */
export const SHOWN = 10;

export type MemberActivity = { items: HistoryEntry[] } | { error: ErrorCode } | null;

/** Whether an entry is a step of this member (their own account's rows included). */
export function isBy(entry: HistoryEntry, userId: string): boolean {
  return entry.actorKind === "user" && entry.actorId === userId;
}

/**
 * A member's latest history entries, newest first (the server filters by person). Entries that
 * deltas bring and that are theirs go on top at once.
 */
export function useMemberActivity(userId: string): MemberActivity {
  const matches = useCallback((entry: HistoryEntry) => isBy(entry, userId), [userId]);
  const list = useHistoryPages({ filter: { person: userId }, key: userId, matches, limit: SHOWN });
  if (list.loading) return null;
  if (list.error) return { error: list.error };
  return { items: list.items.slice(0, SHOWN) };
}
