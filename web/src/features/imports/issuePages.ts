import type { ErrorCode, ImportIssue } from "../../protocol/wire";

/** Problems of an upload or an import, read a page at a time from an offset. */
export type IssuePages = {
  items: ImportIssue[];
  total: number;
  nextOffset?: number;
  loadingMore: boolean;
  error?: ErrorCode;
};

export type IssuePage = { items: ImportIssue[]; total: number; nextOffset?: number };

export function firstIssuePage(page: IssuePage): IssuePages {
  return { items: page.items, total: page.total, nextOffset: page.nextOffset, loadingMore: false };
}

/** The offset the next page starts at, or undefined when every problem is shown or one is on its way. */
export function nextPageOffset(pages: IssuePages): number | undefined {
  return pages.loadingMore ? undefined : pages.nextOffset;
}

export function morePending(pages: IssuePages): IssuePages {
  return { ...pages, loadingMore: true, error: undefined };
}

/** Adds the page read from `offset`; a page for another offset (answered twice, or late) is dropped. */
export function pageArrived(pages: IssuePages, offset: number, page: IssuePage): IssuePages {
  if (offset !== pages.nextOffset) return { ...pages, loadingMore: false };
  return { items: [...pages.items, ...page.items], total: page.total, nextOffset: page.nextOffset, loadingMore: false };
}

export function pageFailed(pages: IssuePages, error: ErrorCode): IssuePages {
  return { ...pages, loadingMore: false, error };
}
