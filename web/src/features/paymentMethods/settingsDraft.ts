import type { PaymentMethodSettings } from "../../protocol/wire";

/** The settings as the form holds them: tracking days as typed. */
export type SettingsDraft = Omit<PaymentMethodSettings, "debicheckTrackingDays"> & { debicheckTrackingDays: string };

export function toDraft(settings: PaymentMethodSettings): SettingsDraft {
  return { ...settings, enabled: [...settings.enabled], debicheckTrackingDays: String(settings.debicheckTrackingDays) };
}

/** Days that are not a whole number go as 0, which the server refuses beside the field. */
export function fromDraft(draft: SettingsDraft): PaymentMethodSettings {
  const days = draft.debicheckTrackingDays.trim();
  return {
    ...draft,
    debicheckTrackingDays: /^\d{1,2}$/.test(days) ? Number(days) : 0,
    debicheckAbbreviatedName: draft.debicheckAbbreviatedName.trim(),
  };
}

export function sameSettings(a: PaymentMethodSettings, b: PaymentMethodSettings): boolean {
  return (
    a.enabled.length === b.enabled.length &&
    a.enabled.every((method) => b.enabled.includes(method)) &&
    a.debicheckApprovalWindow === b.debicheckApprovalWindow &&
    a.debicheckAllowTracking === b.debicheckAllowTracking &&
    a.debicheckTrackingDays === b.debicheckTrackingDays &&
    a.debicheckAllowDateAdjustment === b.debicheckAllowDateAdjustment &&
    a.debicheckAbbreviatedName === b.debicheckAbbreviatedName
  );
}
