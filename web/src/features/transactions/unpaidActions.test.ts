import { describe, expect, it } from "vitest";
import type { Transaction } from "../../protocol/wire";
import { offeredActions } from "./unpaidActions";

const unpaid: Transaction = {
  id: "txn_1",
  mode: "test",
  paymentId: "pay_1",
  paymentKind: "recurring",
  mandateId: "man_1",
  customerId: "cus_1",
  customerName: "Thabo Mokoena",
  method: "eft_debit_order",
  accountLastDigits: "0002",
  reference: "GYM-MARCH",
  amountCents: 10_000,
  actionDate: "2026-03-05",
  status: "unpaid",
  unpaidCode: "02",
  attempt: 1,
  history: [],
  feeCents: 0,
  netCents: 10_000,
  createdAt: 0,
  updatedAt: 0,
};

describe("the follow-ups offered for an unpaid", () => {
  it("presents an 02 again, and asks a schedule's payer for a new mandate", () => {
    expect(offeredActions(unpaid)).toEqual(["Represent", "SendPayLink", "RequestMandate", "EmailPayer"]);
  });

  it("does not present again a code that needs a new mandate", () => {
    expect(offeredActions({ ...unpaid, unpaidCode: "12" })).toEqual(["SendPayLink", "RequestMandate", "EmailPayer"]);
  });

  it("asks no new mandate for a once-off debit", () => {
    expect(offeredActions({ ...unpaid, paymentKind: "once" })).toEqual(["Represent", "SendPayLink", "EmailPayer"]);
  });

  it("offers nothing for a paid debit or a pay-page charge", () => {
    expect(offeredActions({ ...unpaid, status: "paid" })).toEqual([]);
    expect(offeredActions({ ...unpaid, paymentId: undefined, orderId: "ord_1" })).toEqual([]);
  });
});
