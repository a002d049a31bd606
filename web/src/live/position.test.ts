import { describe, expect, it } from "vitest";
import { judgeDelta, needsResync, nextBackoff } from "./position";

describe("judgeDelta", () => {
  const at = { epoch: "ep_1", seq: 10 };

  it("applies the next seq only", () => {
    expect(judgeDelta(at, 11)).toBe("apply");
  });

  it("ignores deltas already applied", () => {
    expect(judgeDelta(at, 10)).toBe("stale");
    expect(judgeDelta(at, 3)).toBe("stale");
  });

  it("reports a gap when a delta is missing", () => {
    expect(judgeDelta(at, 12)).toBe("gap");
    expect(judgeDelta(null, 1)).toBe("gap");
  });
});

describe("needsResync", () => {
  it("is not needed on the first Welcome", () => {
    expect(needsResync(null, { epoch: "ep_1", seq: 5 })).toBe(false);
  });

  it("is not needed when the server carries on from our position", () => {
    expect(needsResync({ epoch: "ep_1", seq: 5 }, { epoch: "ep_1", seq: 5 })).toBe(false);
  });

  it("is needed when the epoch or position moved", () => {
    expect(needsResync({ epoch: "ep_1", seq: 5 }, { epoch: "ep_2", seq: 5 })).toBe(true);
    expect(needsResync({ epoch: "ep_1", seq: 5 }, { epoch: "ep_1", seq: 9 })).toBe(true);
  });
});

describe("nextBackoff", () => {
  it("doubles from half a second up to ten seconds", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(nextBackoff)).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});
