import { describe, expect, it } from "vitest";
import { describeDayToProcess, nextDebitDate, representationOf } from "./schedule";

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

  it("shows an unpaid 02's re-presentation with its day and the day it moved from", () => {
    const waiting = { representationCents: 29_990, representationDate: "2027-01-05", representationMovedFrom: "2027-01-04" };
    expect(representationOf({ status: "running", ...waiting })).toEqual({ cents: 29_990, on: "2027-01-05", movedFrom: "2027-01-04" });
    expect(representationOf({ status: "running", representationCents: 29_990, representationDate: "2027-02-02" })).toEqual({ cents: 29_990, on: "2027-02-02", movedFrom: undefined });
    // Waiting for the merchant to retry it: no day yet.
    expect(representationOf({ status: "paused", ...waiting })).toEqual({ cents: 29_990 });
    expect(representationOf({ status: "running" })).toBeUndefined();
  });
});
