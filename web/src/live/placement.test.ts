import { describe, expect, it } from "vitest";
import { compareIn, place, type Sortable } from "./placement";

type Row = Sortable & { status: string };
const rows: Record<string, Row> = {
  a: { id: "a", createdAt: 300, amountCents: 100, status: "paid" },
  b: { id: "b", createdAt: 200, amountCents: 500, status: "pending" },
  c: { id: "c", createdAt: 100, amountCents: 300, status: "paid" },
};
const recordOf = (id: string) => rows[id];
const any = () => true;

describe("placing a newcomer in a list", () => {
  it("puts the newest first, as the server orders them", () => {
    const fresh = { id: "d", createdAt: 400, amountCents: 50, status: "paid" };
    expect(place(["a", "b", "c"], fresh, any, "newest", recordOf, false)).toEqual(["d", "a", "b", "c"]);
    expect(place(["c", "b", "a"], fresh, any, "oldest", recordOf, false)).toEqual(["c", "b", "a", "d"]);
  });

  it("sorts by amount, then by id in the same direction", () => {
    const fresh = { id: "e", createdAt: 1, amountCents: 300, status: "paid" };
    expect(place(["b", "c", "a"], fresh, any, "amount_high", recordOf, false)).toEqual(["b", "e", "c", "a"]);
    expect(compareIn("amount_low", rows.c, { ...rows.c, id: "d" })).toBeLessThan(0);
  });

  it("leaves a record for a page not loaded yet, and drops one that left the filter", () => {
    const old = { id: "z", createdAt: 1, status: "paid" };
    expect(place(["a", "b", "c"], old, any, "newest", recordOf, true)).toEqual(["a", "b", "c"]);
    const paid = (row: Row) => row.status === "paid";
    expect(place(["a", "b", "c"], { ...rows.b, status: "failed" }, paid, "newest", recordOf, false)).toEqual(["a", "c"]);
  });

  it("asks the server when the filter needs it or a shown row is unknown", () => {
    const fresh = { id: "d", createdAt: 400, status: "paid" };
    expect(place(["a"], fresh, () => undefined, "newest", recordOf, false)).toBeNull();
    expect(place(["x"], fresh, any, "newest", () => undefined, false)).toBeNull();
  });
});
