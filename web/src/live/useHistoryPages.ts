import { useAtomValue, useStore } from "jotai";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ErrorCode, HistoryEntry, HistoryFilter, HistoryPerson } from "../protocol/wire";
import { entityVersionAtom, historyFeedAtom } from "./cache";
import { useLiveClient } from "./context";
import { codeOf } from "./errors";

type Loaded = { key: string; items: HistoryEntry[]; people: HistoryPerson[]; nextCursor?: string; error?: ErrorCode };

export type HistoryPages = {
  items: HistoryEntry[];
  /** Everyone the history names, for a filter by person; kept while another filter loads. */
  people: HistoryPerson[];
  loading: boolean;
  error?: ErrorCode;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
};

type HistoryPagesOptions = {
  filter: HistoryFilter;
  /** Changes whenever `filter` asks for something else. */
  key: string;
  /** Whether an entry a delta brings belongs in the list (the filter, as the tab can tell). */
  matches: (entry: HistoryEntry) => boolean;
  limit: number;
};

/** The entries that arrived (oldest first) on top of those listed (newest first), none twice. */
export function withArrivals(items: HistoryEntry[], arrived: HistoryEntry[]): HistoryEntry[] {
  const known = new Set(items.map((entry) => entry.id));
  const fresh = arrived.filter((entry) => !known.has(entry.id)).reverse();
  return fresh.length > 0 ? [...fresh, ...items] : items;
}

/**
 * History entries for a filter, newest first, a page at a time. The history only grows, and in
 * order: an entry a delta brings (only those of sections the member may read reach the tab)
 * that matches goes on top at once, with no need to ask again. A resync starts over.
 */
export function useHistoryPages({ filter, key: filterKey, matches, limit }: HistoryPagesOptions): HistoryPages {
  const client = useLiveClient();
  const store = useStore();
  const entityVersion = useAtomValue(entityVersionAtom);
  const key = `${filterKey}\u0000${limit}\u0000${entityVersion}`;
  const [list, setList] = useState<Loaded | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  // Answers to an older request (filter changed, list read afresh) are ignored.
  const generation = useRef(0);
  const filterRef = useRef(filter);
  const matchesRef = useRef(matches);
  useEffect(() => {
    filterRef.current = filter;
    matchesRef.current = matches;
  });

  useEffect(() => {
    const mine = ++generation.current;
    client.query({ t: "ListHistory", filter: filterRef.current, limit }).then(
      (body) => {
        if (mine !== generation.current || body.t !== "HistoryPage") return;
        setList({ key, items: body.items, people: body.people, nextCursor: body.nextCursor });
      },
      (error: unknown) => {
        if (mine === generation.current) setList({ key, items: [], people: [], error: codeOf(error) });
      },
    );
  }, [client, key, limit]);

  useEffect(
    () =>
      store.sub(historyFeedAtom, () => {
        const arrived = store.get(historyFeedAtom).entries.filter((entry) => matchesRef.current(entry));
        if (arrived.length === 0) return;
        setList((current) => {
          if (!current || current.error) return current;
          const items = withArrivals(current.items, arrived);
          return items === current.items ? current : { ...current, items };
        });
      }),
    [store],
  );

  const loadMore = useCallback(() => {
    if (!list?.nextCursor || loadingMore) return;
    const mine = generation.current;
    setLoadingMore(true);
    client
      .query({ t: "ListHistory", filter: filterRef.current, cursor: list.nextCursor, limit })
      .then(
        (body) => {
          if (mine !== generation.current || body.t !== "HistoryPage") return;
          setList((current) => {
            if (!current) return current;
            const known = new Set(current.items.map((entry) => entry.id));
            return { ...current, items: [...current.items, ...body.items.filter((entry) => !known.has(entry.id))], nextCursor: body.nextCursor };
          });
        },
        (error: unknown) => {
          if (mine === generation.current) setList((current) => current && { ...current, error: codeOf(error) });
        },
      )
      .finally(() => setLoadingMore(false));
  }, [client, list, loadingMore, limit]);

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
