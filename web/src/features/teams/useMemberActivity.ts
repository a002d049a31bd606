import { useAtomValue, useStore } from "jotai";
import { useEffect, useState } from "react";
import { entityVersionAtom, historyFeedAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
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
  const client = useLiveClient();
  const store = useStore();
  const everything = useAtomValue(entityVersionAtom);
  const [loaded, setLoaded] = useState<MemberActivity>(null);
  useEffect(() => {
    let current = true;
    client.query({ t: "ListHistory", filter: { person: userId }, limit: SHOWN }).then(
      (reply) => {
        if (current) setLoaded(reply.t === "HistoryPage" ? { items: reply.items } : { error: "internal" });
      },
      (error: unknown) => {
        if (current) setLoaded({ error: error instanceof LiveError ? error.wire.code : "internal" });
      },
    );
    return () => {
      current = false;
    };
  }, [client, userId, everything]);
  useEffect(
    () =>
      store.sub(historyFeedAtom, () => {
        const arrived = store.get(historyFeedAtom).entries.filter((entry) => isBy(entry, userId));
        if (arrived.length === 0) return;
        setLoaded((current) => {
          if (!current || "error" in current) return current;
          const known = new Set(current.items.map((entry) => entry.id));
          const fresh = arrived.filter((entry) => !known.has(entry.id)).reverse();
          return { items: [...fresh, ...current.items].slice(0, SHOWN) };
        });
      }),
    [store, userId],
  );
  return loaded;
}
