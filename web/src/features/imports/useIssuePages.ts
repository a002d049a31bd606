import { useCallback, useEffect, useRef, useState } from "react";
import { useAsk } from "../../live/ask";
import { codeOf } from "../../live/errors";
import type { ErrorCode, Query, ReplyBody } from "../../protocol/wire";
import { firstIssuePage, morePending, nextPageOffset, pageArrived, pageFailed, type IssuePage, type IssuePages } from "./issuePages";

export type IssueList = {
  pages: IssuePages | null;
  error?: ErrorCode;
  loadMore: () => void;
};

type Loaded = { key: string; pages: IssuePages | null; error?: ErrorCode };

type IssuePagesOptions = {
  /** Changes whenever the problems are to be read afresh from the top. */
  key: string;
  /** The query of the page from an offset. */
  queryAt: (offset: number) => Query;
  /** The page a reply holds; undefined when the reply is of another kind. */
  page: (reply: ReplyBody) => IssuePage | undefined;
  /** The first page, when it came with something else (a preview carries it). */
  initial?: IssuePage;
};

/**
 * Problems read a page at a time. The first page is given or asked for whenever `key` changes;
 * "load more" appends the page from the last offset. What an upload or an import found does
 * not change under a key, so nothing else asks again.
 */
export function useIssuePages({ key, queryAt, page, initial }: IssuePagesOptions): IssueList {
  const ask = useAsk();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const readRef = useRef({ queryAt, page });
  const keyRef = useRef(key);
  useEffect(() => {
    readRef.current = { queryAt, page };
    keyRef.current = key;
  });
  const fetchPage = useCallback(
    async (offset: number): Promise<IssuePage> => {
      const reply = await ask(readRef.current.queryAt(offset));
      const read = readRef.current.page(reply);
      if (!read) throw new Error(`unexpected reply ${reply.t}`);
      return read;
    },
    [ask],
  );

  useEffect(() => {
    if (initial) return;
    let current = true;
    fetchPage(0).then(
      (page) => current && setLoaded({ key, pages: firstIssuePage(page) }),
      (error: unknown) => current && setLoaded({ key, pages: null, error: codeOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [key, initial, fetchPage]);

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
    fetchPage(offset).then(
      (page) => update((now) => pageArrived(now, offset, page)),
      (error: unknown) => update((now) => pageFailed(now, codeOf(error))),
    );
  }, [key, pages, fetchPage]);

  return { pages, error: shown.error, loadMore };
}
