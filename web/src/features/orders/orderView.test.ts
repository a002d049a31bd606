import { describe, expect, it } from "vitest";
import { isOrderFiltered, orderActions, orderFilterOf, readOrderView, writeOrderView } from "./orderView";

describe("orders view in the address", () => {
  it("reads filters and the open order from a shared link", () => {
    const view = readOrderView(new URLSearchParams("q=sipho&status=paid&method=instant_eft&page=pg_1&order=ord_9"));
    expect(view).toEqual({ search: "sipho", status: "paid", method: "instant_eft", pageId: "pg_1", order: "ord_9" });
    expect(orderFilterOf(view)).toEqual({ search: "sipho", status: "paid", method: "instant_eft", pageId: "pg_1" });
  });

  it("leaves out what it does not understand", () => {
    const view = readOrderView(new URLSearchParams("status=lost&method=cash&order="));
    expect(view).toEqual({ search: "" });
    expect(orderFilterOf(view)).toEqual({});
    expect(isOrderFiltered(view)).toBe(false);
  });

  it("writes short addresses that read back the same", () => {
    expect(writeOrderView({ search: "  " }).toString()).toBe("");
    const view = { search: "DAYPASS", status: "failed" as const, order: "ord_1" };
    const params = writeOrderView(view);
    expect(params.toString()).toBe("q=DAYPASS&status=failed&order=ord_1");
    expect(readOrderView(params)).toEqual(view);
  });

  it("does not count the open order as a filter", () => {
    expect(isOrderFiltered({ search: "", order: "ord_1" })).toBe(false);
    expect(isOrderFiltered({ search: " x " })).toBe(true);
    expect(orderFilterOf({ search: " x " })).toEqual({ search: "x" });
  });

  it("offers refund on paid orders and cancel on pending ones only", () => {
    expect(orderActions("paid")).toEqual(["refund"]);
    expect(orderActions("pending")).toEqual(["cancel"]);
    for (const status of ["failed", "refunded", "cancelled"] as const) expect(orderActions(status)).toEqual([]);
  });
});
