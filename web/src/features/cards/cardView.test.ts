import { describe, expect, it } from "vitest";
import { chargeFrom, formatExpiry, isExpired } from "./cardView";

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
});
