import { readAllPages, type Ask } from "../../live/ask";
import type { ReplyBody, SortOrder, Transaction, TransactionFilter } from "../../protocol/wire";

// The server's largest page.
const EXPORT_PAGE = 200;
// Enough for a month of a large merchant; past this a spreadsheet is the wrong tool,
// and the export says it stopped short.
export const EXPORT_CAP = 10_000;

export type ExportRows = { items: Transaction[]; capped: boolean };

const transactionPage = (reply: ReplyBody) => (reply.t === "TransactionPage" ? { items: reply.items, next: reply.nextCursor } : undefined);

/** Every transaction the list's filter and order give, page by page, up to the cap. */
export async function fetchForExport(ask: Ask, filter: TransactionFilter, sort: SortOrder, cap = EXPORT_CAP): Promise<ExportRows> {
  const rows = await readAllPages<Transaction, string | undefined>(ask, {
    from: undefined,
    query: (cursor, read) => ({ t: "ListTransactions", filter, sort, cursor, limit: Math.min(EXPORT_PAGE, cap - read) }),
    page: transactionPage,
    cap,
  });
  return { items: rows.items, capped: rows.more };
}
