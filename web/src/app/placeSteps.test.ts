import { describe, expect, it } from "vitest";
import { nextPlaceStep, switchedAddress } from "./placeSteps";

const at = (pathname: string, search = "", hash = "") => ({ pathname, search, hash });
const karooTest = { merchantId: "mer_karoo", mode: "test" as const };
const ownLive = { merchantId: "mer_own", mode: "live" as const };

describe("keeping the address and the tab's place together", () => {
  it("opens the place a new address names, filling in what it leaves out", () => {
    expect(nextPlaceStep(at("/customers/cus_1", "?business=mer_karoo&mode=test"), true, ownLive)).toEqual({ t: "open", place: karooTest });
    expect(nextPlaceStep(at("/insights", "?mode=test"), true, ownLive)).toEqual({ t: "open", place: { merchantId: "mer_own", mode: "test" } });
    // Before the first Welcome the tab may know nothing: the address alone says where.
    expect(nextPlaceStep(at("/customers", "?business=mer_karoo&mode=test"), true, {})).toEqual({ t: "open", place: karooTest });
  });

  it("writes the place into an address that names none, keeping the screen's own params", () => {
    expect(nextPlaceStep(at("/payments/transactions", "?status=paid", "#x"), true, karooTest)).toEqual({
      t: "rewrite",
      to: at("/payments/transactions", "?status=paid&business=mer_karoo&mode=test", "#x"),
    });
    // Until the server has chosen, there is nothing to write.
    expect(nextPlaceStep(at("/customers"), true, {})).toEqual({ t: "stay" });
  });

  it("follows the tab to the list when it was moved off the business the address names", () => {
    // Removed from Karoo: the Welcome of their own business, the address still on Karoo's customer.
    expect(nextPlaceStep(at("/customers/cus_1", "?business=mer_karoo&mode=test"), false, { merchantId: "mer_own", mode: "test" })).toEqual({
      t: "rewrite",
      to: at("/customers", "?business=mer_own&mode=test"),
    });
    // While the tab waits for that Welcome it is nowhere yet: the address stays.
    expect(nextPlaceStep(at("/customers/cus_1", "?business=mer_karoo&mode=test"), false, { mode: "test" })).toEqual({ t: "stay" });
  });

  it("leaves addresses that agree, and the pages of no business, alone", () => {
    expect(nextPlaceStep(at("/customers", "?business=mer_karoo&mode=test"), true, karooTest)).toEqual({ t: "stay" });
    expect(nextPlaceStep(at("/auth/login", "?redirect=%2Fcustomers"), true, karooTest)).toEqual({ t: "stay" });
  });

  it("switches from a record to its list, the screen's own filters left behind", () => {
    expect(switchedAddress("/payments/one-time/imports/imp_1", ownLive)).toEqual(at("/payments/one-time", "?business=mer_own&mode=live"));
    expect(switchedAddress("/insights", karooTest)).toEqual(at("/insights", "?business=mer_karoo&mode=test"));
  });
});
