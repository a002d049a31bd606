import { useCallback } from "react";
import type { Query, ReplyBody } from "../protocol/wire";
import { useLiveClient } from "./context";

/** One question to the server and its answer; a failure rejects with the wire's error. */
export type Ask = (query: Query) => Promise<ReplyBody>;

/**
 * Asks the server for what is no screen's read: a file, an export, where a record is. Nothing
 * follows the answer and nothing keeps it; a screen reads through `useLiveQuery`, `useRecord`
 * or `usePagedList` instead, which ask again when the answer moves.
 */
export function useAsk(): Ask {
  const client = useLiveClient();
  return useCallback((query: Query) => client.query(query), [client]);
}

/** One page's items and where the next page starts; no `next` on the last page. */
export type PageRead<Item, At> = { items: Item[]; next?: At };

export type AllPagesRead<Item, At> = {
  /** Where the first page starts: an offset of 0, or no cursor (`At` is then `string | undefined`). */
  from: At;
  /** The query of the page at `at`, given how many items the pages before it held. */
  query: (at: At, read: number) => Query;
  /** The page a reply holds; undefined when the reply is of another kind. */
  page: (reply: ReplyBody) => PageRead<Item, At> | undefined;
  /** Stop once this many items are in. */
  cap?: number;
};

/** Every item, in order; `more` when the cap stopped it before the last page. */
export type AllPages<Item> = { items: Item[]; more: boolean };

/**
 * Reads a paged answer to its end (an export, a file in pieces, a statement's every entry), one
 * page after another from where the last one ended.
 */
export async function readAllPages<Item, At>(ask: Ask, { from, query, page, cap = Infinity }: AllPagesRead<Item, At>): Promise<AllPages<Item>> {
  const items: Item[] = [];
  const asked = new Set<At>();
  let at = from;
  for (;;) {
    asked.add(at);
    const reply = await ask(query(at, items.length));
    const read = page(reply);
    if (!read) throw new Error(`unexpected reply ${reply.t}`);
    items.push(...read.items);
    if (read.next === undefined) return { items: items.slice(0, cap), more: false };
    if (items.length >= cap) return { items: items.slice(0, cap), more: true };
    // A page that points back at one already read would ask for ever.
    if (asked.has(read.next)) throw new Error("pages do not advance");
    at = read.next;
  }
}
