import { describe, expect, it } from "vitest";
import type { Dashboard } from "../../protocol/wire";
import { ratioLevel, thresholdShare, thresholdWarnings } from "./thresholds";

function dashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  return {
    today: "2026-03-10",
    collectedTodayCents: 0,
    collectedMonthCents: 0,
    settledThisMonth: 40,
    successRateBp: 9000,
    unpaidRatioBp: 0,
    disputeRatioBp: 0,
    unpaidThresholdBp: 1000,
    disputeThresholdBp: 50,
    upcoming: [],
    upcomingMore: 0,
    recent: [],
    ...overrides,
  };
}

describe("ratioLevel", () => {
  it("is over at the threshold and above it", () => {
    expect(ratioLevel(1000, 1000, 10)).toBe("over");
    expect(ratioLevel(1250, 1000, 10)).toBe("over");
    expect(ratioLevel(50, 50, 10)).toBe("over");
  });

  it("is near from 80 % of the threshold", () => {
    expect(ratioLevel(800, 1000, 10)).toBe("near");
    expect(ratioLevel(999, 1000, 10)).toBe("near");
    expect(ratioLevel(40, 50, 10)).toBe("near");
    expect(ratioLevel(799, 1000, 10)).toBe("ok");
  });

  it("judges nothing before any debit settled", () => {
    expect(ratioLevel(10_000, 1000, 0)).toBe("ok");
  });
});

describe("thresholdWarnings", () => {
  it("warns for a crossed unpaid ratio and an almost crossed dispute ratio, crossed first", () => {
    const warnings = thresholdWarnings(dashboard({ unpaidRatioBp: 1200, disputeRatioBp: 45 }));
    expect(warnings).toEqual([
      { kind: "unpaid", level: "over", ratioBp: 1200, thresholdBp: 1000 },
      { kind: "dispute", level: "near", ratioBp: 45, thresholdBp: 50 },
    ]);
  });

  it("puts a crossed dispute ratio before a nearly crossed unpaid ratio", () => {
    const warnings = thresholdWarnings(dashboard({ unpaidRatioBp: 900, disputeRatioBp: 60 }));
    expect(warnings.map((warning) => warning.kind)).toEqual(["dispute", "unpaid"]);
  });

  it("is quiet when both ratios are well inside their thresholds", () => {
    expect(thresholdWarnings(dashboard({ unpaidRatioBp: 300, disputeRatioBp: 10 }))).toEqual([]);
  });
});

describe("thresholdShare", () => {
  it("fills the bar up to the threshold and no further", () => {
    expect(thresholdShare(500, 1000)).toBe(0.5);
    expect(thresholdShare(3000, 1000)).toBe(1);
    expect(thresholdShare(5, 0)).toBe(0);
  });
});
