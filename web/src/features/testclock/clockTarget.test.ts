import { describe, expect, it } from "vitest";
import { clockTarget, hasReached } from "./clockTarget";

describe("clockTarget", () => {
  it("moves a day, across month and year ends", () => {
    expect(clockTarget("2026-03-02", "day")).toBe("2026-03-03");
    expect(clockTarget("2026-02-28", "day")).toBe("2026-03-01");
    expect(clockTarget("2028-02-28", "day")).toBe("2028-02-29");
    expect(clockTarget("2026-12-31", "day")).toBe("2027-01-01");
  });

  it("moves a week of seven calendar days", () => {
    expect(clockTarget("2026-03-27", "week")).toBe("2026-04-03");
    expect(clockTarget("2026-12-28", "week")).toBe("2027-01-04");
  });

  it("moves one calendar month, ending on a shorter month's last day", () => {
    expect(clockTarget("2026-03-15", "month")).toBe("2026-04-15");
    expect(clockTarget("2026-01-31", "month")).toBe("2026-02-28");
    expect(clockTarget("2028-01-31", "month")).toBe("2028-02-29");
    expect(clockTarget("2026-03-31", "month")).toBe("2026-04-30");
    expect(clockTarget("2026-12-15", "month")).toBe("2027-01-15");
  });
});

describe("hasReached", () => {
  it("is reached on the target day and after it, not before or while unknown", () => {
    expect(hasReached("2026-04-15", "2026-04-15")).toBe(true);
    expect(hasReached("2026-04-16", "2026-04-15")).toBe(true);
    expect(hasReached("2026-04-14", "2026-04-15")).toBe(false);
    expect(hasReached(undefined, "2026-04-15")).toBe(false);
  });
});
