import { describe, expect, it } from "vitest";
import type { HistoryEntry } from "../../protocol/wire";
import { shownRecordId } from "./labels";

describe("record ids people see", () => {
  const entry = { recordKind: "customer", recordId: "cus_1" } as HistoryEntry;
  it("show a record's own id, never a setting's kind or an account's user id", () => {
    expect(shownRecordId(entry)).toBe("cus_1");
    expect(shownRecordId({ ...entry, recordKind: "business_clock", recordId: "business_clock" })).toBeUndefined();
    expect(shownRecordId({ ...entry, recordKind: "payout_settings", recordId: "payout_settings" })).toBeUndefined();
    expect(shownRecordId({ ...entry, recordKind: "account", recordId: "usr_1" })).toBeUndefined();
    expect(shownRecordId({ ...entry, recordId: undefined })).toBeUndefined();
  });
});
