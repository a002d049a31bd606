import type { SortOrder } from "../protocol/wire";

// Where a list shown from the server places a record it has not seen, without asking the
// server again: the list's filter and order are known, so the tab can decide. The order is the
// server's (`store/sql.rs` `push_page`): the sort key, then the id, both the same direction.

export type Sortable = { id: string; createdAt: number; amountCents?: number };

/** Whether a record is in the list's filter; undefined when only the server can tell (a search). */
export type Matches<T> = (record: T) => boolean | undefined;

function sortKey(sort: SortOrder, record: Sortable): number {
  return sort === "amount_high" || sort === "amount_low" ? (record.amountCents ?? 0) : record.createdAt;
}

/** Negative when `a` comes before `b` in the list. */
export function compareIn(sort: SortOrder, a: Sortable, b: Sortable): number {
  const descending = sort === "newest" || sort === "amount_high";
  const byKey = sortKey(sort, a) - sortKey(sort, b);
  const byId = a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  const order = byKey !== 0 ? byKey : byId;
  return descending ? -order : order;
}

/**
 * The list's ids with `record` placed: added where the order puts it, dropped when it left the
 * filter, unchanged when it belongs to a page not loaded yet. Null when the tab cannot decide
 * (the filter needs the server, or a shown row's record is unknown): the list asks again.
 */
export function place<T extends Sortable>(
  ids: string[],
  record: T,
  matches: Matches<T>,
  sort: SortOrder,
  recordOf: (id: string) => T | undefined,
  hasMore: boolean,
): string[] | null {
  const inFilter = matches(record);
  if (inFilter === undefined) return ids.includes(record.id) ? ids : null;
  if (!inFilter) return ids.includes(record.id) ? ids.filter((id) => id !== record.id) : ids;
  // A shown row changes in place: its sort keys (created, amount) do not move once listed.
  if (ids.includes(record.id)) return ids;
  let at = ids.length;
  for (let index = 0; index < ids.length; index += 1) {
    const shown = recordOf(ids[index]);
    if (!shown) return null;
    if (compareIn(sort, record, shown) < 0) {
      at = index;
      break;
    }
  }
  // After the last loaded row of a list with more pages: it is on a page not shown yet.
  if (at === ids.length && hasMore) return ids;
  return [...ids.slice(0, at), record.id, ...ids.slice(at)];
}
