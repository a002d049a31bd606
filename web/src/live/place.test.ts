import { describe, expect, it } from "vitest";
import { addressFits, fillPlace, hrefWithPlace, isComplete, placeIn, samePlace, withoutPlaceParams, withPlaceParams } from "./place";

describe("place in the address", () => {
  it("reads the business and the mode, and nothing they cannot be", () => {
    expect(placeIn("?business=mer_01abc&mode=test&q=x")).toEqual({ merchantId: "mer_01abc", mode: "test" });
    expect(placeIn("business=a%20b&mode=staging")).toEqual({ merchantId: undefined, mode: undefined });
    expect(placeIn("")).toEqual({ merchantId: undefined, mode: undefined });
  });

  it("fills what an address leaves out from where the tab is", () => {
    expect(fillPlace({ mode: "test" }, { merchantId: "mer_1", mode: "live" })).toEqual({ merchantId: "mer_1", mode: "test" });
    expect(isComplete({ merchantId: "mer_1" })).toBe(false);
    expect(samePlace({ merchantId: "mer_1", mode: "live" }, { merchantId: "mer_1", mode: "live" })).toBe(true);
    expect(addressFits({ mode: "test" }, { merchantId: "mer_1", mode: "test" })).toBe(true);
    expect(addressFits({ merchantId: "mer_1", mode: "test" }, { mode: "test" })).toBe(false);
  });

  it("adds the place to an address, keeping its own query, its hash and any place it names", () => {
    const here = { merchantId: "mer_1", mode: "test" as const };
    expect(hrefWithPlace("/customers/cus_1", here)).toBe("/customers/cus_1?business=mer_1&mode=test");
    expect(hrefWithPlace("/payments/transactions?status=paid#top", here)).toBe("/payments/transactions?status=paid&business=mer_1&mode=test#top");
    expect(hrefWithPlace("/customers?mode=live", here)).toBe("/customers?mode=live&business=mer_1");
    expect(hrefWithPlace("/customers", {})).toBe("/customers");
  });

  it("takes the place out of a screen's own params and puts it back", () => {
    const params = new URLSearchParams("q=x&business=mer_1&mode=test");
    expect(withoutPlaceParams(params).toString()).toBe("q=x");
    expect(withPlaceParams(withoutPlaceParams(params), { merchantId: "mer_2", mode: "live" }).toString()).toBe("q=x&business=mer_2&mode=live");
  });
});
