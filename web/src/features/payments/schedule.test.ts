import { describe, expect, it } from "vitest";
import { describeDayToProcess, nextDebitDate } from "./schedule";

describe("payment schedule", () => {
  it("a paused schedule has no next debit until it is resumed", () => {
    expect(nextDebitDate({ status: "running", nextActionDate: "2026-12-01" })).toBe("2026-12-01");
    expect(nextDebitDate({ status: "paused", nextActionDate: "2026-12-01" })).toBeUndefined();
    expect(nextDebitDate({ status: "running", nextActionDate: undefined })).toBeUndefined();
  });

  it("reads a day to process by its interval", () => {
    expect(describeDayToProcess("weekly", 1, "en-ZA")).toEqual({ key: "weekday", weekday: "Monday" });
    expect(describeDayToProcess("fortnightly", 9, "en-ZA")).toEqual({ key: "fortnightDay", day: 9 });
    expect(describeDayToProcess("monthly", 31, "en-ZA")).toEqual({ key: "lastDay" });
    expect(describeDayToProcess("monthly", 15, "en-ZA")).toEqual({ key: "monthDay", day: 15 });
  });
});
