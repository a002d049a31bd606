import { describe, expect, it } from "vitest";
import { absoluteLink, eMandateInputFrom, emptyEMandateDraft } from "./eMandateForm";

describe("e-mandate request form", () => {
  it("names the empty fields of a new payer before asking the server", () => {
    const built = eMandateInputFrom({ ...emptyEMandateDraft("en"), payer: "new" });
    expect(built.input).toBeUndefined();
    expect(built.errors).toEqual({ name: "required", email: "required", amountCents: "required", startDate: "required" });
  });

  it("builds a request for a customer in cents, leaving the maximum out when empty", () => {
    const built = eMandateInputFrom({
      ...emptyEMandateDraft("afr"),
      customerId: "cus_1",
      amount: "R 1 250.50",
      startDate: "2026-12-01",
      payerMayChange: ["start_date", "amount"],
    });
    expect(built.input).toEqual({
      customerId: "cus_1",
      name: "",
      email: "",
      cellphone: "",
      language: "afr",
      method: "debicheck",
      amountCents: 125050,
      interval: "monthly",
      startDate: "2026-12-01",
      payerMayChange: ["amount", "start_date"],
    });
  });

  it("refuses an unreadable maximum", () => {
    const built = eMandateInputFrom({ ...emptyEMandateDraft("en"), customerId: "cus_1", amount: "100", maximum: "abc", startDate: "2026-12-01" });
    expect(built.errors).toEqual({ maxCents: "invalid_amount" });
  });

  it("makes the server's path a link a payer can open", () => {
    expect(absoluteLink("/mandate/abc", "http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080/mandate/abc");
  });
});
