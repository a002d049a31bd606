import { useCallback, useEffect, useRef, useState } from "react";
import { LiveError } from "../../live/client";
import type { ErrorCode } from "../../protocol/wire";
import { firstIssuePage, morePending, nextPageOffset, pageArrived, pageFailed, type IssuePage, type IssuePages } from "./issuePages";

export type IssueList = {
  pages: IssuePages | null;
  error?: ErrorCode;
  loadMore: () => void;
};

type Loaded = { key: string; pages: IssuePages | null; error?: ErrorCode };

function codeOf(error: unknown): ErrorCode {
  return error instanceof LiveError ? error.wire.code : "internal";
}

/**
 * Problems read a page at a time. The first page is given (a preview carries it) or asked for
 * whenever `key` changes; "load more" appends the page from the last offset.
 */
export function useIssuePages(key: string, fetchPage: (offset: number) => Promise<IssuePage>, initial?: IssuePage): IssueList {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const fetchRef = useRef(fetchPage);
  const keyRef = useRef(key);
  useEffect(() => {
    fetchRef.current = fetchPage;
    keyRef.current = key;
  });

  useEffect(() => {
    if (initial) return;
    let current = true;
    fetchRef.current(0).then(
      (page) => current && setLoaded({ key, pages: firstIssuePage(page) }),
      (error: unknown) => current && setLoaded({ key, pages: null, error: codeOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [key, initial]);

  const shown: Loaded = loaded?.key === key ? loaded : { key, pages: initial ? firstIssuePage(initial) : null };
  const { pages } = shown;

  const loadMore = useCallback(() => {
    const offset = pages ? nextPageOffset(pages) : undefined;
    if (offset === undefined || !pages) return;
    const update = (change: (pages: IssuePages) => IssuePages) =>
      // An answer for a list that has since been read afresh is dropped.
      keyRef.current === key &&
      setLoaded((now) => {
        const base = now?.key === key && now.pages ? now.pages : pages;
        return { key, pages: change(base) };
      });
    update(morePending);
    fetchRef.current(offset).then(
      (page) => update((now) => pageArrived(now, offset, page)),
      (error: unknown) => update((now) => pageFailed(now, codeOf(error))),
    );
  }, [key, pages]);

  return { pages, error: shown.error, loadMore };
}
