import { describe, expect, it } from "vitest";
import type { HistoryEntry } from "../protocol/wire";
import { withArrivals } from "./useHistoryPages";

function entry(id: string): HistoryEntry {
  return { id, at: 1795000000000, actorKind: "user", actorId: "usr_1", recordKind: "customer", action: "created", fields: [] };
}

const ids = (entries: HistoryEntry[]) => entries.map((one) => one.id);

describe("withArrivals", () => {
  it("puts what arrived on top, the newest first", () => {
    expect(ids(withArrivals([entry("hst_2"), entry("hst_1")], [entry("hst_3"), entry("hst_4")]))).toEqual(["hst_4", "hst_3", "hst_2", "hst_1"]);
  });

  it("lists an entry once, whether it came with a page or a delta first", () => {
    expect(ids(withArrivals([entry("hst_3"), entry("hst_2")], [entry("hst_3"), entry("hst_4")]))).toEqual(["hst_4", "hst_3", "hst_2"]);
  });

  it("keeps the same list when nothing new arrived, so nothing draws again", () => {
    const items = [entry("hst_1")];
    expect(withArrivals(items, [entry("hst_1")])).toBe(items);
  });
});
