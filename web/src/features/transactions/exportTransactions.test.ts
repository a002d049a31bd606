import { describe, expect, it } from "vitest";
import { sampleTransaction } from "../../live/testing";
import type { Query, ReplyBody } from "../../protocol/wire";
import { fetchForExport } from "./exportTransactions";

// A fake server holding `total` transactions, paging by a numeric cursor.
function fakeServer(total: number) {
  const asked: Query[] = [];
  const ask = (query: Query): Promise<ReplyBody> => {
    asked.push(query);
    if (query.t !== "ListTransactions") throw new Error("unexpected");
    const start = Number(query.cursor ?? 0);
    const end = Math.min(total, start + (query.limit ?? 50));
    const items = Array.from({ length: end - start }, (_, i) => sampleTransaction({ id: `txn_${start + i}` }));
    return Promise.resolve({ t: "TransactionPage", items, nextCursor: end < total ? String(end) : undefined });
  };
  return { asked, ask };
}

describe("fetchForExport", () => {
  it("pages through every result with the list's filter and order", async () => {
    const server = fakeServer(450);
    const rows = await fetchForExport(server.ask, { status: "paid" }, "amount_low");
    expect(rows.items).toHaveLength(450);
    expect(rows.capped).toBe(false);
    expect(server.asked).toHaveLength(3);
    for (const query of server.asked) expect(query).toMatchObject({ filter: { status: "paid" }, sort: "amount_low", limit: 200 });
  });

  it("stops at the cap and says so", async () => {
    const server = fakeServer(1000);
    const rows = await fetchForExport(server.ask, {}, "newest", 300);
    expect(rows.items).toHaveLength(300);
    expect(rows.capped).toBe(true);
    expect(server.asked.map((query) => (query.t === "ListTransactions" ? query.limit : 0))).toEqual([200, 100]);
  });

  it("is not capped when the results end exactly at the cap", async () => {
    const rows = await fetchForExport(fakeServer(300).ask, {}, "newest", 300);
    expect(rows).toMatchObject({ capped: false });
  });
});
