import { describe, expect, it } from "vitest";
import { chargeFrom, formatExpiry, isExpired, scheduleFrom, scheduleState } from "./cardView";

describe("cards on file", () => {
  it("writes the expiry as MM/YY", () => {
    expect(formatExpiry({ expiryMonth: 3, expiryYear: 2031 })).toBe("03/31");
    expect(formatExpiry({ expiryMonth: 12, expiryYear: 2100 })).toBe("12/00");
  });

  it("keeps a card good through its expiry month", () => {
    expect(isExpired({ expiryMonth: 3, expiryYear: 2026 }, "2026-03-31")).toBe(false);
    expect(isExpired({ expiryMonth: 2, expiryYear: 2026 }, "2026-03-01")).toBe(true);
    expect(isExpired({ expiryMonth: 12, expiryYear: 2025 }, "2026-01-15")).toBe(true);
    expect(isExpired({ expiryMonth: 1, expiryYear: 2027 }, "2026-12-31")).toBe(false);
  });

  it("charges an amount in rand with a reference", () => {
    expect(chargeFrom("card_1", { amount: "R 1 299,99", reference: " JAN-2026 " })).toEqual({
      command: { t: "ChargeCard", cardId: "card_1", amountCents: 129999, reference: "JAN-2026" },
      errors: {},
    });
  });

  it("marks a missing or wrong amount and reference", () => {
    expect(chargeFrom("card_1", { amount: "", reference: "" }).errors).toEqual({ amountCents: "required", reference: "required" });
    expect(chargeFrom("card_1", { amount: "0", reference: "x".repeat(31) }).errors).toEqual({ amountCents: "invalid_amount", reference: "too_long" });
    expect(chargeFrom("card_1", { amount: "12.345", reference: "A" }).command).toBeNull();
  });

  it("builds a schedule from today on, and refuses a start in the past", () => {
    const draft = { amount: "150", interval: "monthly" as const, reference: "YOGA", startDate: "2026-03-09" };
    expect(scheduleFrom("card_1", draft, "2026-03-02").command).toEqual({
      t: "ScheduleCard",
      cardId: "card_1",
      amountCents: 15000,
      interval: "monthly",
      reference: "YOGA",
      startDate: "2026-03-09",
    });
    expect(scheduleFrom("card_1", { ...draft, startDate: "2026-03-01" }, "2026-03-02").errors).toEqual({ startDate: "date_in_past" });
    expect(scheduleFrom("card_1", { ...draft, startDate: "" }, "2026-03-02").errors).toEqual({ startDate: "required" });
  });

  it("shows where a schedule stands", () => {
    const base = { amountCents: 15000, interval: "monthly" as const, reference: "YOGA", nextChargeDate: "2026-04-02", failedTries: 0 };
    expect(scheduleState({ ...base, status: "active" }).tone).toBe("green");
    expect(scheduleState({ ...base, status: "active", retryDate: "2026-04-05", failedTries: 1 }).key).toBe("cards.schedule.retrying");
    expect(scheduleState({ ...base, status: "paused", pauseReason: "card_expired" }).key).toBe("cards.schedule.paused.card_expired");
    expect(scheduleState({ ...base, status: "stopped" }).tone).toBe("zinc");
  });
});
