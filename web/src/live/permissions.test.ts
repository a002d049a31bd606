import { describe, expect, it } from "vitest";
import { can, everySection } from "./permissions";

describe("permissions", () => {
  it("lets write include read and hides what the matrix does not grant", () => {
    const support = { ...everySection("none"), customers: "write", payments: "read", payPages: "none" } as const;
    expect(can(support, "customers", "read")).toBe(true);
    expect(can(support, "customers", "write")).toBe(true);
    expect(can(support, "payments", "read")).toBe(true);
    expect(can(support, "payments", "write")).toBe(false);
    expect(can(support, "pay_pages", "read")).toBe(false);
  });

  it("grants nothing before the welcome says what the role may do", () => {
    expect(can(undefined, "customers", "read")).toBe(false);
  });
});
