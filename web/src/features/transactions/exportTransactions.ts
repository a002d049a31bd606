import type { LiveClient } from "../../live/client";
import type { SortOrder, Transaction, TransactionFilter } from "../../protocol/wire";

// The server's largest page.
const EXPORT_PAGE = 200;
// Enough for a month of a large merchant; past this a spreadsheet is the wrong tool,
// and the export says it stopped short.
export const EXPORT_CAP = 10_000;

export type ExportRows = { items: Transaction[]; capped: boolean };

type Lister = Pick<LiveClient, "query">;

/** Every transaction the list's filter and order give, page by page, up to the cap. */
export async function fetchForExport(client: Lister, filter: TransactionFilter, sort: SortOrder, cap = EXPORT_CAP): Promise<ExportRows> {
  const items: Transaction[] = [];
  let cursor: string | undefined;
  do {
    const body = await client.query({ t: "ListTransactions", filter, sort, cursor, limit: Math.min(EXPORT_PAGE, cap - items.length) });
    if (body.t !== "TransactionPage") throw new Error(`unexpected reply ${body.t}`);
    items.push(...body.items);
    cursor = body.nextCursor;
  } while (cursor && items.length < cap);
  return { items: items.slice(0, cap), capped: Boolean(cursor) };
}
