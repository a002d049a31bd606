import { describe, expect, it } from "vitest";
import type { Payment, PaymentStatus, Transaction } from "../../protocol/wire";
import { latestTransaction, paymentActions } from "./paymentActions";

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

function debit(status: Transaction["status"], unpaidCode?: string, createdAt = 1): Transaction {
  return {
    id: `txn_${createdAt}`,
    mode: "test",
    paymentId: "pay_1",
    paymentKind: "recurring",
    mandateId: "man_1",
    customerId: "cus_1",
    customerName: "Thandi",
    method: "debicheck",
    bank: "absa",
    accountLastDigits: "6789",
    reference: "",
    amountCents: 10000,
    actionDate: "2026-03-02",
    status,
    unpaidCode,
    attempt: 1,
    history: [],
    createdAt,
    updatedAt: createdAt,
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

  it("offers a retry only after an unpaid 02", () => {
    expect(paymentActions(payment("stopped", { stopReason: "02" }))).toEqual(["retry"]);
    expect(paymentActions(payment("stopped", { stopReason: "12" }))).toEqual([]);
    expect(paymentActions(payment("stopped", { stopReason: "mandate_ended" }))).toEqual([]);
    expect(paymentActions(payment("running"), debit("unpaid", "02"))).toEqual(["retry", "pause", "cancel"]);
    expect(paymentActions(payment("running"), debit("unpaid", "04"))).toEqual(["pause", "cancel"]);
    expect(paymentActions(payment("running"), debit("paid"))).toEqual(["pause", "cancel"]);
  });

  it("takes the newest debit as the last one", () => {
    expect(latestTransaction([debit("paid", undefined, 1), debit("unpaid", "02", 5), debit("paid", undefined, 3)])?.id).toBe("txn_5");
    expect(latestTransaction([])).toBeUndefined();
  });
});
