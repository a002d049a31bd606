import { useAtomValue } from "jotai";
import { useCallback, useEffect, useRef, useState } from "react";
import { customerUpsertsAtom, listVersionAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { CustomerStatus, ErrorCode } from "../../protocol/wire";

const PAGE_SIZE = 25;

type LoadedList = {
  key: string;
  ids: string[];
  nextCursor?: string;
  pages: number;
  error?: ErrorCode;
};

export type CustomerList = {
  ids: string[];
  loading: boolean;
  error?: ErrorCode;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
};

// True when a change brings a record this list has not seen while it shows only its first page.
export function showsNewcomer(list: { pages: number; ids: string[] }, upserted: string[]): boolean {
  return list.pages === 1 && upserted.some((id) => !list.ids.includes(id));
}

function codeOf(error: unknown): ErrorCode {
  return error instanceof LiveError ? error.wire.code : "internal";
}

/** One server-side filtered, cursor-paged list of customer ids that follows live changes. */
export function useCustomerList(search: string, status: CustomerStatus): CustomerList {
  const client = useLiveClient();
  const version = useAtomValue(listVersionAtom).customer;
  const upserts = useAtomValue(customerUpsertsAtom);
  const key = `${status}\u0000${search}\u0000${version}`;
  const [list, setList] = useState<LoadedList | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  // Answers to an older request (search typed on, list refetched) are ignored.
  const generation = useRef(0);

  const fetchFirstPage = useCallback(() => {
    const mine = ++generation.current;
    client.query({ t: "ListCustomers", search: search || undefined, status, limit: PAGE_SIZE }).then(
      (body) => {
        if (mine !== generation.current || body.t !== "CustomerPage") return;
        setList({ key, ids: body.items.map((item) => item.id), nextCursor: body.nextCursor, pages: 1 });
      },
      (error: unknown) => {
        if (mine === generation.current) setList({ key, ids: [], pages: 0, error: codeOf(error) });
      },
    );
  }, [client, search, status, key]);

  useEffect(fetchFirstPage, [fetchFirstPage]);

  // A record this list has not seen: while only the first page shows, ask the
  // server again, so its filter and order decide where (and whether) it appears.
  const handledSerial = useRef(upserts.serial);
  useEffect(() => {
    if (handledSerial.current === upserts.serial) return;
    handledSerial.current = upserts.serial;
    // While a first page is on its way, its answer already reflects this change.
    if (!list || list.key !== key) return;
    if (showsNewcomer(list, upserts.ids)) fetchFirstPage();
  }, [upserts, list, key, fetchFirstPage]);

  const loadMore = useCallback(() => {
    if (!list?.nextCursor || loadingMore) return;
    const mine = generation.current;
    setLoadingMore(true);
    client
      .query({ t: "ListCustomers", search: search || undefined, status, cursor: list.nextCursor, limit: PAGE_SIZE })
      .then(
        (body) => {
          if (mine !== generation.current || body.t !== "CustomerPage") return;
          setList((current) =>
            current && {
              ...current,
              ids: [...current.ids, ...body.items.map((item) => item.id).filter((id) => !current.ids.includes(id))],
              nextCursor: body.nextCursor,
              pages: current.pages + 1,
            },
          );
        },
        (error: unknown) => {
          if (mine === generation.current) setList((current) => current && { ...current, error: codeOf(error) });
        },
      )
      .finally(() => setLoadingMore(false));
  }, [client, list, loadingMore, search, status]);

  return {
    ids: list?.ids ?? [],
    loading: list?.key !== key,
    error: list?.key === key ? list.error : undefined,
    hasMore: Boolean(list?.nextCursor) && list?.key === key,
    loadingMore,
    loadMore,
  };
}
