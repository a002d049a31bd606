import { describe, expect, it } from "vitest";
import type { MerchantView } from "../protocol/wire";
import { accessChange, commandNeed, refusalOf } from "./access";
import { everySection } from "./permissions";

function member(overrides: Partial<MerchantView> = {}): MerchantView {
  return { id: "mer_1", name: "Karoo Gym", role: "viewer", permissions: { ...everySection("read"), developers: "none" }, ...overrides };
}

describe("refusalOf", () => {
  it("allows what the role grants and names the section it lacks", () => {
    const support = member({ role: "support", permissions: { ...everySection("none"), customers: "write", payments: "read", settings: "read" } });
    expect(refusalOf(support, "customers:write")).toBeNull();
    expect(refusalOf(support, "payments:read")).toBeNull();
    expect(refusalOf(support, "payments:write")).toEqual({ t: "section", section: "payments", access: "write" });
    expect(refusalOf(support, "pay_pages:read")).toEqual({ t: "section", section: "pay_pages", access: "read" });
  });

  it("keeps the owner's own rights to the owner, whatever an admin's matrix says", () => {
    const admin = member({ role: "admin", permissions: everySection("write") });
    expect(refusalOf(admin, "owner")).toEqual({ t: "owner" });
    expect(refusalOf(member({ role: "owner", permissions: everySection("write") }), "owner")).toBeNull();
  });

  it("refuses everything before the server said who the member is", () => {
    expect(refusalOf(undefined, "customers:read")).toEqual({ t: "section", section: "customers", access: "read" });
  });
});

describe("accessChange", () => {
  it("tells a new role by name, and new grants of the same custom role apart", () => {
    const operations = member({ role: "operations", permissions: { ...everySection("none"), payments: "write" } });
    expect(accessChange(operations, member())).toEqual({ t: "role", merchant: member() });
    const readers = member({ role: "custom", roleName: "Customer readers", permissions: { ...everySection("none"), customers: "read" } });
    const writers = { ...readers, permissions: { ...readers.permissions, customers: "write" as const } };
    expect(accessChange(readers, writers)).toEqual({ t: "grants", merchant: writers });
    expect(accessChange(readers, { ...readers, roleName: "Customer writers" })?.t).toBe("role");
  });

  it("says nothing when nothing changed or another merchant is meant", () => {
    expect(accessChange(member(), member())).toBeNull();
    expect(accessChange(member(), member({ id: "mer_2", role: "owner" }))).toBeNull();
  });
});

describe("commandNeed", () => {
  it("follows the server's routing: refunds and order cancels differ, own-account commands need nothing", () => {
    expect(commandNeed({ t: "ActOnPayment", paymentId: "pay_1", action: "pause" })).toBe("payments:write");
    expect(commandNeed({ t: "ActOnOrder", orderId: "ord_1", action: "refund", amountCents: 100 })).toBe("refunds:write");
    expect(commandNeed({ t: "ActOnOrder", orderId: "ord_1", action: "cancel" })).toBe("orders:write");
    expect(commandNeed({ t: "TransferOwnership", userId: "usr_2", confirmation: "x" })).toBe("owner");
    expect(commandNeed({ t: "SignOutOtherSessions" })).toBe("own_account");
  });
});
