import { useAtomValue, useStore } from "jotai";
import { useCallback, useEffect, useRef, useState } from "react";
import { entityVersionAtom, historyFeedAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { ErrorCode, HistoryEntry, HistoryFilter, HistoryPerson } from "../../protocol/wire";

type Loaded = { key: string; items: HistoryEntry[]; people: HistoryPerson[]; nextCursor?: string; error?: ErrorCode };

export type HistoryList = {
  items: HistoryEntry[];
  people: HistoryPerson[];
  loading: boolean;
  error?: ErrorCode;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
};

const PAGE_SIZE = 50;

function codeOf(error: unknown): ErrorCode {
  return error instanceof LiveError ? error.wire.code : "internal";
}

/**
 * The history's entries for a filter, newest first. Entries that deltas bring (only those of
 * sections the member may read reach this tab) and that match the filter go on top at once.
 */
export function useHistoryList(filter: HistoryFilter, filterKey: string, matches: (entry: HistoryEntry) => boolean): HistoryList {
  const client = useLiveClient();
  const store = useStore();
  const entityVersion = useAtomValue(entityVersionAtom);
  const key = `${filterKey}\u0000${entityVersion}`;
  const [list, setList] = useState<Loaded | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const generation = useRef(0);
  const filterRef = useRef(filter);
  const matchesRef = useRef(matches);
  useEffect(() => {
    filterRef.current = filter;
    matchesRef.current = matches;
  });

  useEffect(() => {
    const mine = ++generation.current;
    client.query({ t: "ListHistory", filter: filterRef.current, limit: PAGE_SIZE }).then(
      (body) => {
        if (mine !== generation.current || body.t !== "HistoryPage") return;
        setList({ key, items: body.items, people: body.people, nextCursor: body.nextCursor });
      },
      (error: unknown) => {
        if (mine === generation.current) setList({ key, items: [], people: [], error: codeOf(error) });
      },
    );
  }, [client, key]);

  // New entries arrive as deltas: the newest goes first, none twice.
  useEffect(
    () =>
      store.sub(historyFeedAtom, () => {
        const arrived = store.get(historyFeedAtom).entries.filter((entry) => matchesRef.current(entry));
        if (arrived.length === 0) return;
        setList((current) => {
          if (!current || current.error) return current;
          const known = new Set(current.items.map((entry) => entry.id));
          const fresh = arrived.filter((entry) => !known.has(entry.id)).reverse();
          return fresh.length > 0 ? { ...current, items: [...fresh, ...current.items] } : current;
        });
      }),
    [store],
  );

  const loadMore = useCallback(() => {
    if (!list?.nextCursor || loadingMore) return;
    const mine = generation.current;
    setLoadingMore(true);
    client
      .query({ t: "ListHistory", filter: filterRef.current, cursor: list.nextCursor, limit: PAGE_SIZE })
      .then(
        (body) => {
          if (mine !== generation.current || body.t !== "HistoryPage") return;
          setList((current) => {
            if (!current) return current;
            const known = new Set(current.items.map((entry) => entry.id));
            return { ...current, items: [...current.items, ...body.items.filter((e) => !known.has(e.id))], nextCursor: body.nextCursor };
          });
        },
        (error: unknown) => {
          if (mine === generation.current) setList((current) => current && { ...current, error: codeOf(error) });
        },
      )
      .finally(() => setLoadingMore(false));
  }, [client, list, loadingMore]);

  const current = list?.key === key;
  return {
    items: current ? list.items : [],
    people: list?.people ?? [],
    loading: !current,
    error: current ? list.error : undefined,
    hasMore: current && Boolean(list.nextCursor),
    loadingMore,
    loadMore,
  };
}
