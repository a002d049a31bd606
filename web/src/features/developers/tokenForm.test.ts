import { describe, expect, it } from "vitest";
import { accessChoices, addressList, expiryOf, noAccess, scopeSummary } from "./tokenForm";

describe("the API token form", () => {
  it("offers no more than the member has", () => {
    expect(accessChoices("write")).toEqual(["none", "read", "write"]);
    expect(accessChoices("read")).toEqual(["none", "read"]);
    expect(accessChoices("none")).toEqual(["none"]);
  });

  it("reads an allow-list typed with commas, spaces or lines", () => {
    expect(addressList(" 203.0.113.7,\n198.51.100.0/24  2001:db8::/32 ")).toEqual(["203.0.113.7", "198.51.100.0/24", "2001:db8::/32"]);
    expect(addressList("  ")).toEqual([]);
  });

  it("ends an expiry day at midnight in South Africa, and none means never", () => {
    expect(expiryOf("2026-12-31")).toBe(Date.parse("2026-12-31T21:59:59Z"));
    expect(expiryOf("")).toBeUndefined();
  });

  it("sums up scopes by write, then read", () => {
    const permissions = { ...noAccess(), payments: "write" as const, customers: "read" as const };
    expect(scopeSummary(permissions)).toEqual({ write: ["payments"], read: ["customers"] });
  });
});
