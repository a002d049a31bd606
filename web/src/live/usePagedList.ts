import { useAtomValue, useStore, type Atom } from "jotai";
import { useCallback, useEffect, useRef, useState } from "react";
import type { EntityKind, ErrorCode, Query, SortOrder } from "../protocol/wire";
import { entityVersionAtom, topicVersionsAtom, type UpsertFeed } from "./cache";
import { useLiveClient } from "./context";
import { codeOf } from "./errors";
import { pacer, type Pacer } from "./pacer";
import { place, type Matches, type Sortable } from "./placement";
import { throttleDelay } from "./throttle";

// A newcomer the tab cannot place asks at once; a burst of them (a test clock month) asks
// again at most once per gap.
const NEWCOMER_GAP_MS = 250;
// A bulk import invalidates a list per batch it writes: ask again at most once a second.
const INVALIDATE_GAP_MS = 1_000;

type LoadedList = { key: string; ids: string[]; nextCursor?: string; pages: number; error?: ErrorCode };

export type PagedList = {
  ids: string[];
  loading: boolean;
  error?: ErrorCode;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
};

type PagedListOptions = {
  /** The list kind whose Invalidate (throttled, rows kept in view) or resync (at once) asks for the list again. */
  kind: EntityKind;
  /** The feed announcing upserted ids of that kind. */
  upserts: Atom<UpsertFeed>;
  /** The query of one page; `key` must change whenever it asks for something else. */
  query: (cursor: string | undefined) => Query;
  key: string;
  /** How the tab places a newcomer itself (the list's filter and order); without it, it asks. */
  placement?: ListPlacement;
};

export type ListPlacement = {
  record: (id: string) => Atom<Sortable | undefined>;
  matches: Matches<never>;
  sort: SortOrder;
};

// True when a change brings a record this list has not seen while it shows only its first page.
export function showsNewcomer(list: { pages: number; ids: string[] }, upserted: string[]): boolean {
  return list.pages === 1 && upserted.some((id) => !list.ids.includes(id));
}

function idsOf(body: unknown): { ids: string[]; nextCursor?: string } | null {
  if (!body || typeof body !== "object" || !("items" in body) || !Array.isArray(body.items)) return null;
  const page = body as { items: { id: string }[]; nextCursor?: string };
  return { ids: page.items.map((item) => item.id), nextCursor: page.nextCursor };
}

/**
 * One server-side filtered, sorted, cursor-paged list of ids that follows live changes: the
 * records themselves live in the entity cache, so rows change in place; a record the list
 * has not seen makes it ask for its first page again, so the server decides where it goes.
 */
export function usePagedList({ kind, upserts: feed, query, key: queryKey, placement }: PagedListOptions): PagedList {
  const client = useLiveClient();
  const store = useStore();
  const listVersion = useAtomValue(topicVersionsAtom)[kind];
  const entityVersion = useAtomValue(entityVersionAtom);
  const upserts = useAtomValue(feed);
  // A resync or another merchant drops every record: the list starts over at once.
  const key = `${queryKey}\u0000${entityVersion}`;
  const [list, setList] = useState<LoadedList | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  // Answers to an older request (filter changed, list refetched) are ignored.
  const generation = useRef(0);
  // The latest query, for the requests below: `key` says when it asks for something else.
  const queryRef = useRef(query);
  const placementRef = useRef(placement);
  useEffect(() => {
    queryRef.current = query;
    placementRef.current = placement;
  });

  const fetchFirstPage = useCallback(() => {
    const mine = ++generation.current;
    return client.query(queryRef.current(undefined)).then(
      (body) => {
        const page = idsOf(body);
        if (mine !== generation.current || !page) return;
        setList({ key, ids: page.ids, nextCursor: page.nextCursor, pages: 1 });
      },
      (error: unknown) => {
        if (mine === generation.current) setList({ key, ids: [], pages: 0, error: codeOf(error) });
      },
    );
  }, [client, key]);

  useEffect(() => {
    void fetchFirstPage();
  }, [fetchFirstPage]);

  const handledVersion = useRef(listVersion);
  const lastInvalidateFetch = useRef<number | undefined>(undefined);
  const invalidateTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (handledVersion.current === listVersion) return;
    handledVersion.current = listVersion;
    if (invalidateTimer.current !== undefined) return;
    invalidateTimer.current = setTimeout(
      () => {
        invalidateTimer.current = undefined;
        lastInvalidateFetch.current = Date.now();
        void fetchFirstPage();
      },
      throttleDelay(lastInvalidateFetch.current, Date.now(), INVALIDATE_GAP_MS),
    );
  }, [listVersion, fetchFirstPage]);

  // Newcomers the tab cannot place ask for the first page again, paced.
  const newcomers = useRef<Pacer | null>(null);
  useEffect(() => {
    const own = pacer(fetchFirstPage, NEWCOMER_GAP_MS);
    newcomers.current = own;
    return () => own.stop();
  }, [fetchFirstPage]);

  const handledSerial = useRef(upserts.serial);
  useEffect(() => {
    if (handledSerial.current === upserts.serial) return;
    handledSerial.current = upserts.serial;
    // While a first page is on its way, its answer already reflects this change.
    if (!list || list.key !== key || list.error) return;
    const placing = placementRef.current;
    if (!placing) {
      if (showsNewcomer(list, upserts.ids)) newcomers.current?.changed();
      return;
    }
    const recordOf = (id: string) => store.get(placing.record(id));
    const matches = placing.matches as Matches<Sortable>;
    let ids: string[] | null = list.ids;
    for (const id of upserts.ids) {
      const record = recordOf(id);
      ids = record && ids ? place(ids, record, matches, placing.sort, recordOf, Boolean(list.nextCursor)) : null;
      if (!ids) break;
    }
    if (!ids) newcomers.current?.changed();
    else if (ids !== list.ids) setList({ ...list, ids });
  }, [upserts, list, key, store]);
  // Another filter fetches its own first page: an invalidation planned for the old one is dropped.
  useEffect(
    () => () => {
      clearTimeout(invalidateTimer.current);
      invalidateTimer.current = undefined;
    },
    [key],
  );

  const loadMore = useCallback(() => {
    if (!list?.nextCursor || loadingMore) return;
    const mine = generation.current;
    setLoadingMore(true);
    client
      .query(queryRef.current(list.nextCursor))
      .then(
        (body) => {
          const page = idsOf(body);
          if (mine !== generation.current || !page) return;
          setList((current) =>
            current && {
              ...current,
              ids: [...current.ids, ...page.ids.filter((id) => !current.ids.includes(id))],
              nextCursor: page.nextCursor,
              pages: current.pages + 1,
            },
          );
        },
        (error: unknown) => {
          if (mine === generation.current) setList((current) => current && { ...current, error: codeOf(error) });
        },
      )
      .finally(() => setLoadingMore(false));
  }, [client, list, loadingMore]);

  const current = list?.key === key;
  return {
    ids: current ? list.ids : [],
    loading: !current,
    error: current ? list.error : undefined,
    hasMore: current && Boolean(list.nextCursor),
    loadingMore,
    loadMore,
  };
}
