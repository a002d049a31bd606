import type { ErrorCode, ImportIssue, ImportPreview, ReplyBody } from "../../protocol/wire";

/** Problems of an upload or an import, read a page at a time from an offset. */
export type IssuePages = {
  items: ImportIssue[];
  total: number;
  nextOffset?: number;
  loadingMore: boolean;
  error?: ErrorCode;
};

export type IssuePage = { items: ImportIssue[]; total: number; nextOffset?: number };

/** The problems a preview carries: its first page of them. */
export function previewIssues(preview: ImportPreview): IssuePage {
  return { items: preview.issues, total: preview.issueCount, nextOffset: preview.nextOffset };
}

/** A page of problems (of an import, or of an upload's repeats). */
export const issuePageOf = (reply: ReplyBody): IssuePage | undefined => (reply.t === "ImportIssuePage" ? reply : undefined);

/** A preview's page of problems from an offset. */
export const previewIssuePageOf = (reply: ReplyBody): IssuePage | undefined => (reply.t === "ImportPreview" ? previewIssues(reply.preview) : undefined);

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
