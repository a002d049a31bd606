import { describe, expect, it } from "vitest";
import { toWithPlace } from "./placeLinks";

const here = { merchantId: "mer_karoo", mode: "test" as const };

describe("links keep the tab's place", () => {
  it("on every address of the signed-in app, as text or as parts", () => {
    expect(toWithPlace("/customers/cus_1", here)).toBe("/customers/cus_1?business=mer_karoo&mode=test");
    expect(toWithPlace({ pathname: "/commerce/orders", search: "?order=ord_1" }, here)).toEqual({
      pathname: "/commerce/orders",
      search: "?order=ord_1&business=mer_karoo&mode=test",
    });
    // Relative addresses stay in the app.
    expect(toWithPlace("edit", here)).toBe("edit?business=mer_karoo&mode=test");
  });

  it("but not on the sign-in pages and the other public ones", () => {
    expect(toWithPlace("/auth/login", here)).toBe("/auth/login");
    expect(toWithPlace({ pathname: "/auth/forgot" }, here)).toEqual({ pathname: "/auth/forgot" });
  });
});
