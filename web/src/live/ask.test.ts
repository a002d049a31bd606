import { describe, expect, it } from "vitest";
import type { Customer, Query, ReplyBody } from "../protocol/wire";
import { readAllPages, type Ask } from "./ask";
import { sampleCustomer } from "./testing";

// A server holding `total` customers, paging by a numeric cursor.
function customers(total: number): { ask: Ask; asked: Query[] } {
  const asked: Query[] = [];
  const ask: Ask = (query) => {
    asked.push(query);
    if (query.t !== "ListCustomers") return Promise.reject(new Error("unexpected"));
    const start = Number(query.cursor ?? 0);
    const end = Math.min(total, start + (query.limit ?? 50));
    const items = Array.from({ length: end - start }, (_, i) => sampleCustomer({ id: `cus_${start + i}` }));
    return Promise.resolve({ t: "CustomerPage", items, nextCursor: end < total ? String(end) : undefined });
  };
  return { ask, asked };
}

const customerPage = (reply: ReplyBody) => (reply.t === "CustomerPage" ? { items: reply.items, next: reply.nextCursor } : undefined);

function listAll(ask: Ask, cap?: number) {
  return readAllPages<Customer, string | undefined>(ask, {
    from: undefined,
    query: (cursor, read) => ({ t: "ListCustomers", status: "active", cursor, limit: Math.min(20, (cap ?? Infinity) - read) }),
    page: customerPage,
    cap,
  });
}

describe("readAllPages", () => {
  it("reads from the first page to the last, each from where the one before ended", async () => {
    const server = customers(45);
    const all = await listAll(server.ask);
    expect(all.items.map((customer) => customer.id)).toEqual(Array.from({ length: 45 }, (_, i) => `cus_${i}`));
    expect(all.more).toBe(false);
    expect(server.asked.map((query) => (query.t === "ListCustomers" ? query.cursor : "?"))).toEqual([undefined, "20", "40"]);
  });

  it("stops at the cap, tells each page how many came before, and says there was more", async () => {
    const server = customers(100);
    const all = await listAll(server.ask, 30);
    expect(all.items).toHaveLength(30);
    expect(all.more).toBe(true);
    expect(server.asked.map((query) => (query.t === "ListCustomers" ? query.limit : 0))).toEqual([20, 10]);
  });

  it("is not cut short when the items end exactly at the cap", async () => {
    expect(await listAll(customers(40).ask, 40)).toMatchObject({ more: false });
  });

  it("starts where it is told and follows offsets", async () => {
    const asked: number[] = [];
    const ask: Ask = (query) => {
      const offset = query.t === "GetStatement" ? query.offset : -1;
      asked.push(offset);
      return Promise.resolve({ t: "Done" });
    };
    const all = await readAllPages<number, number>(ask, {
      from: 0,
      query: (offset) => ({ t: "GetStatement", from: "2026-03-01", to: "2026-03-31", offset }),
      page: () => {
        const at = asked[asked.length - 1] ?? 0;
        return { items: [at], next: at < 400 ? at + 200 : undefined };
      },
    });
    expect(asked).toEqual([0, 200, 400]);
    expect(all.items).toEqual([0, 200, 400]);
  });

  it("gives up on a page that points back at one already read, and on a reply of another kind", async () => {
    const again: Ask = () => Promise.resolve({ t: "CustomerPage", items: [], nextCursor: "c1" });
    await expect(listAll(again)).rejects.toThrow(/do not advance/);
    const other: Ask = () => Promise.resolve({ t: "Done" });
    await expect(listAll(other)).rejects.toThrow(/unexpected reply Done/);
  });

  it("passes the server's refusal on", async () => {
    const refused: Ask = () => Promise.reject(new Error("forbidden"));
    await expect(listAll(refused)).rejects.toThrow("forbidden");
  });
});
