import { describe, expect, it } from "vitest";
import { showsNewcomer } from "./usePagedList";

describe("showsNewcomer", () => {
  it("asks for the first page again when a new record arrives", () => {
    expect(showsNewcomer({ pages: 1, ids: ["cus_a"] }, ["cus_b"])).toBe(true);
  });

  it("leaves the list alone when only shown records changed", () => {
    expect(showsNewcomer({ pages: 1, ids: ["cus_a", "cus_b"] }, ["cus_b"])).toBe(false);
  });

  it("keeps pages the user loaded instead of jumping back to the first", () => {
    expect(showsNewcomer({ pages: 2, ids: ["cus_a"] }, ["cus_new"])).toBe(false);
  });
});
