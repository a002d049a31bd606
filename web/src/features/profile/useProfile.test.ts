import { describe, expect, it } from "vitest";
import { sampleProfile } from "../../live/testing";
import { mustSetUpTwoFactor } from "./useProfile";

describe("mustSetUpTwoFactor", () => {
  it("holds only while the team requires it and the user has not turned it on", () => {
    expect(mustSetUpTwoFactor(undefined)).toBe(false);
    expect(mustSetUpTwoFactor(sampleProfile({ twoFactorRequired: false }))).toBe(false);
    expect(mustSetUpTwoFactor(sampleProfile({ twoFactorRequired: true, twoFactorEnabled: true }))).toBe(false);
    expect(mustSetUpTwoFactor(sampleProfile({ twoFactorRequired: true, twoFactorEnabled: false }))).toBe(true);
  });
});
