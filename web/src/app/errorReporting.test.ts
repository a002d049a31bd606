import { describe, expect, it } from "vitest";
import { redactPath, startErrorReporting } from "./errorReporting";

describe("redactPath", () => {
  it("cuts the tokens of link routes and anything id-like", () => {
    expect(redactPath("/auth/reset/abcdefghij")).toBe("/auth/reset/[redacted]");
    expect(redactPath("/account/teams/invite/tok")).toBe("/account/teams/invite/[redacted]");
    expect(redactPath("/customers/cus_0193abcdef123456")).toBe("/customers/[redacted]");
    expect(redactPath("/payments/recurring")).toBe("/payments/recurring");
  });
});

describe("startErrorReporting", () => {
  it("loads nothing when the server has no DSN", async () => {
    await expect(startErrorReporting(() => Promise.resolve(null))).resolves.toBeNull();
  });
});
