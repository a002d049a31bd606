import { describe, expect, it } from "vitest";
import type { ImportIssue } from "../../protocol/wire";
import { firstIssuePage, morePending, nextPageOffset, pageArrived, pageFailed } from "./issuePages";

function issues(from: number, count: number): ImportIssue[] {
  return Array.from({ length: count }, (_, i) => ({ row: from + i + 2, column: "Email", code: "invalid_email" as const }));
}

describe("issue paging", () => {
  it("starts from the page the preview carried", () => {
    const pages = firstIssuePage({ items: issues(0, 2), total: 5, nextOffset: 2 });
    expect(pages.items).toHaveLength(2);
    expect(nextPageOffset(pages)).toBe(2);
  });

  it("appends the next page and stops when the server has no more", () => {
    let pages = firstIssuePage({ items: issues(0, 2), total: 5, nextOffset: 2 });
    pages = morePending(pages);
    expect(nextPageOffset(pages)).toBeUndefined();
    pages = pageArrived(pages, 2, { items: issues(2, 2), total: 5, nextOffset: 4 });
    pages = pageArrived(morePending(pages), 4, { items: issues(4, 1), total: 5 });
    expect(pages.items.map((issue) => issue.row)).toEqual([2, 3, 4, 5, 6]);
    expect(pages.loadingMore).toBe(false);
    expect(nextPageOffset(pages)).toBeUndefined();
  });

  it("drops a page that answers an offset already read", () => {
    let pages = firstIssuePage({ items: issues(0, 2), total: 4, nextOffset: 2 });
    pages = pageArrived(morePending(pages), 2, { items: issues(2, 2), total: 4 });
    const again = pageArrived(pages, 2, { items: issues(2, 2), total: 4 });
    expect(again.items).toHaveLength(4);
  });

  it("keeps what it has and says why when a page fails, and can ask again", () => {
    let pages = firstIssuePage({ items: issues(0, 2), total: 4, nextOffset: 2 });
    pages = pageFailed(morePending(pages), "import_upload_not_found");
    expect(pages.items).toHaveLength(2);
    expect(pages.error).toBe("import_upload_not_found");
    expect(nextPageOffset(pages)).toBe(2);
    expect(morePending(pages).error).toBeUndefined();
  });

  it("shows an upload with no problems as an empty last page", () => {
    const pages = firstIssuePage({ items: [], total: 0 });
    expect(nextPageOffset(pages)).toBeUndefined();
  });
});
