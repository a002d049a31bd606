import { describe, expect, it } from "vitest";
import type { SearchHit } from "../../protocol/wire";
import { hitPath } from "./searchPaths";

const hit = (kind: SearchHit["kind"], more: Partial<SearchHit> = {}): SearchHit => ({ kind, id: "x_1", title: "T", detail: "", ...more });

describe("a search hit's screen", () => {
  it("is the record's page, by kind", () => {
    expect(hitPath(hit("customer"))).toBe("/customers/x_1");
    expect(hitPath(hit("payment", { paymentKind: "once" }))).toBe("/payments/one-time/x_1");
    expect(hitPath(hit("payment", { paymentKind: "recurring" }))).toBe("/payments/recurring/x_1");
    expect(hitPath(hit("mandate"))).toBe("/mandates/x_1");
    expect(hitPath(hit("transaction"))).toBe("/payments/transactions/x_1");
  });

  it("is the list that opens it for orders and payouts", () => {
    expect(hitPath(hit("order"))).toBe("/commerce/orders?order=x_1");
    expect(hitPath(hit("payout"))).toBe("/account/payouts?payout=x_1");
  });
});
