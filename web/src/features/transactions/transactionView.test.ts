import { describe, expect, it } from "vitest";
import { readListView, writeListView } from "../../components/listView";
import { feeStanding, TRANSACTION_STATUSES, transactionRequest, type TransactionView } from "./transactionView";

describe("transactions view in the address", () => {
  it("round-trips a bookmarked view with a transaction status", () => {
    const view: TransactionView = {
      status: "unpaid",
      method: "registered_mandate",
      from: "2026-03-01",
      to: "2026-03-31",
      min: "100",
      max: "2 500,50",
      search: "Nkosi 6789",
      sort: "oldest",
    };
    const address = writeListView(view).toString();
    expect(address).toContain("status=unpaid");
    expect(readListView(new URLSearchParams(address), TRANSACTION_STATUSES)).toEqual(view);
  });

  it("drops a payment status, which transactions do not have", () => {
    expect(readListView(new URLSearchParams("status=running"), TRANSACTION_STATUSES).status).toBeUndefined();
  });

  it("asks the server in cents, leaving out what the view leaves open", () => {
    const view: TransactionView = { status: "paid", min: "10,5", max: "", search: " 6789 ", sort: "amount_low" };
    expect(transactionRequest(view)).toMatchObject({
      filter: { status: "paid", minCents: 1050, search: "6789" },
      sort: "amount_low",
      invalid: [],
    });
  });

  it("gives the same key to views that ask the same", () => {
    const a = transactionRequest({ min: "10", max: "", search: "x ", sort: "newest" });
    const b = transactionRequest({ min: "10.00", max: "", search: "x", sort: "newest" });
    expect(a.key).toBe(b.key);
  });
});

describe("feeStanding", () => {
  it("charges a paid debit, expects a fee of one on its way and none of one that failed or went back", () => {
    expect(feeStanding("paid")).toBe("charged");
    expect(feeStanding("in_tracking")).toBe("whenPaid");
    expect(feeStanding("pending")).toBe("whenPaid");
    for (const status of ["unpaid", "rejected_by_bank", "disputed", "reversed", "cancelled"] as const) {
      expect(feeStanding(status)).toBe("none");
    }
  });
});
