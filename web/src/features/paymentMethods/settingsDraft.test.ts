import { describe, expect, it } from "vitest";
import type { PaymentMethodSettings } from "../../protocol/wire";
import { fromDraft, sameSettings, toDraft } from "./settingsDraft";

const SETTINGS: PaymentMethodSettings = {
  enabled: ["debicheck", "eft_debit_order"],
  debicheckApprovalWindow: "tt1_delayed",
  debicheckAllowTracking: true,
  debicheckTrackingDays: 10,
  debicheckAllowDateAdjustment: false,
  debicheckAbbreviatedName: "GYMCO",
  version: 4,
};

describe("payment method settings form", () => {
  it("round-trips settings", () => {
    expect(fromDraft(toDraft(SETTINGS))).toEqual(SETTINGS);
    expect(sameSettings(fromDraft(toDraft(SETTINGS)), SETTINGS)).toBe(true);
  });

  it("sees a change and ignores method order", () => {
    expect(sameSettings({ ...SETTINGS, enabled: ["eft_debit_order", "debicheck"] }, SETTINGS)).toBe(true);
    expect(sameSettings({ ...SETTINGS, enabled: ["debicheck"] }, SETTINGS)).toBe(false);
    expect(sameSettings({ ...SETTINGS, debicheckTrackingDays: 3 }, SETTINGS)).toBe(false);
  });

  it("sends days that are not a number as 0, for the server to refuse", () => {
    expect(fromDraft({ ...toDraft(SETTINGS), debicheckTrackingDays: "x" }).debicheckTrackingDays).toBe(0);
    expect(fromDraft({ ...toDraft(SETTINGS), debicheckAbbreviatedName: "  GYM " }).debicheckAbbreviatedName).toBe("GYM");
  });
});
