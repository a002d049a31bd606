import { describe, expect, it } from "vitest";
import { FEED_SIZE, feedIds, pushChanged } from "./feed";

describe("home feed", () => {
  it("puts the last change of a delta on top and moves a changed row up", () => {
    expect(pushChanged(["txn_a", "txn_b"], ["txn_c", "txn_b"])).toEqual(["txn_b", "txn_c", "txn_a"]);
  });

  it("keeps a bounded number of rows", () => {
    const many = Array.from({ length: FEED_SIZE + 5 }, (_, i) => `txn_${i}`);
    expect(pushChanged([], many)).toHaveLength(FEED_SIZE);
    expect(pushChanged([], many)[0]).toBe(`txn_${FEED_SIZE + 4}`);
  });

  it("shows what the tab saw before the server's recent list, without repeats", () => {
    expect(feedIds(["txn_new"], ["txn_old", "txn_new"])).toEqual(["txn_new", "txn_old"]);
  });
});
