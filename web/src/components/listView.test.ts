import { describe, expect, it } from "vitest";
import { centsToRand, isFiltered, listRequest, randToCents, readListView, writeListView, type ListView } from "./listView";

const STATUSES = ["running", "paused"] as const;

describe("list view in the address", () => {
  it("round-trips every filter through the search params", () => {
    const view: ListView<(typeof STATUSES)[number]> = {
      status: "paused",
      method: "debicheck",
      from: "2026-01-31",
      to: "2026-02-28",
      min: "150.50",
      max: "1 000",
      search: "Thandi Mokoena",
      sort: "amount_high",
      archived: true,
    };
    const address = writeListView(view).toString();
    expect(readListView(new URLSearchParams(address), STATUSES)).toEqual(view);
  });

  it("keeps the default view out of the address", () => {
    expect(writeListView({ min: "", max: "", search: "", sort: "newest" }).toString()).toBe("");
  });

  it("drops what it does not understand", () => {
    const view = readListView(new URLSearchParams("status=flying&method=cash&from=2026-02-30&sort=random"), STATUSES);
    expect(view).toEqual({ min: "", max: "", search: "", sort: "newest" });
    expect(isFiltered(view)).toBe(false);
  });
});

describe("rand and cents", () => {
  it("reads rand as merchants type it", () => {
    expect(randToCents("150")).toBe(15000);
    expect(randToCents("150.5")).toBe(15050);
    expect(randToCents("1 250,05")).toBe(125005);
    expect(randToCents("R 99.99")).toBe(9999);
    expect(randToCents("0.29")).toBe(29);
    expect(randToCents("")).toBeUndefined();
    expect(randToCents("1.234")).toBe("invalid");
    expect(randToCents("-5")).toBe("invalid");
    expect(randToCents("abc")).toBe("invalid");
  });

  it("writes cents back so they read again", () => {
    for (const cents of [0, 5, 99, 100, 15050, 125005]) expect(randToCents(centsToRand(cents))).toBe(cents);
    expect(centsToRand(15050)).toBe("150.50");
    expect(centsToRand(15000)).toBe("150");
  });

  it("sends amounts in cents and leaves unset filters off the wire", () => {
    const request = listRequest<string>({ min: "10", max: "x", search: "  ", sort: "oldest", status: "running" });
    expect(request).toEqual({ filter: { status: "running", minCents: 1000 }, sort: "oldest", invalid: ["max"] });
  });
});
