import { describe, expect, it } from "vitest";
import type { Payment, PaymentStatus } from "../../protocol/wire";
import { paymentActions } from "./paymentActions";

function payment(status: PaymentStatus, extra: Partial<Payment> = {}): Payment {
  return {
    id: "pay_1",
    mode: "test",
    kind: "recurring",
    customerId: "cus_1",
    customerName: "Thandi",
    mandateId: "man_1",
    method: "debicheck",
    status,
    amountCents: 10000,
    transactionReference: "",
    collectedCents: 0,
    attempts: 0,
    consecutiveUnpaids: 0,
    createdAt: 1,
    updatedAt: 1,
    ...extra,
  };
}

describe("payment actions", () => {
  it("follows the payment lifecycle", () => {
    expect(paymentActions(payment("pending"))).toEqual(["cancel"]);
    expect(paymentActions(payment("pending", { method: "eft_debit_order" }))).toEqual(["start", "cancel"]);
    expect(paymentActions(payment("running"))).toEqual(["pause", "cancel"]);
    expect(paymentActions(payment("paused"))).toEqual(["resume", "cancel"]);
    expect(paymentActions(payment("cancelled"))).toEqual([]);
    expect(paymentActions(payment("completed"))).toEqual([]);
  });

  it("offers a retry only on a payment paused by an unpaid 02", () => {
    expect(paymentActions(payment("paused", { stopReason: "02" }))).toEqual(["retry", "resume", "cancel"]);
    expect(paymentActions(payment("stopped", { stopReason: "02" }))).toEqual([]);
    expect(paymentActions(payment("stopped", { stopReason: "12" }))).toEqual([]);
    expect(paymentActions(payment("stopped", { stopReason: "mandate_ended" }))).toEqual([]);
    expect(paymentActions(payment("running"))).toEqual(["pause", "cancel"]);
  });
});
