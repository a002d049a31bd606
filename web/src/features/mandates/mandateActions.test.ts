import { describe, expect, it } from "vitest";
import type { Mandate, MandateStatus } from "../../protocol/wire";
import { mandateActions } from "./mandateActions";

function mandate(status: MandateStatus, archived = false): Mandate {
  return {
    id: "man_1",
    mode: "test",
    customerId: "cus_1",
    customerName: "Thandi",
    customerEmail: "t@example.co.za",
    bankAccountId: "ba_1",
    bank: "absa",
    accountLastDigits: "6789",
    method: "debicheck",
    status,
    archived,
    clientType: "resident_individual",
    industry: "subscription",
    contractReference: "C1",
    amountCents: 10000,
    allowTracking: false,
    allowDateAdjustment: false,
    variableAmount: false,
    adjustmentCategory: "never",
    adjustmentRate: "",
    abbreviatedName: "",
    authenticationRequests: 1,
    createdAt: 1,
    updatedAt: 1,
  };
}

describe("mandate actions", () => {
  it("follows the mandate lifecycle", () => {
    expect(mandateActions(mandate("draft"))).toEqual([]);
    expect(mandateActions(mandate("pending_authentication"))).toEqual([]);
    expect(mandateActions(mandate("active"))).toEqual(["suspend", "cancel"]);
    expect(mandateActions(mandate("suspended"))).toEqual(["resume", "cancel"]);
    expect(mandateActions(mandate("no_reply"))).toEqual(["resend_authentication", "archive"]);
    for (const status of ["rejected", "cancelled", "disabled", "completed"] as const) expect(mandateActions(mandate(status))).toEqual(["archive"]);
  });

  it("only restores an archived mandate", () => {
    expect(mandateActions(mandate("cancelled", true))).toEqual(["restore"]);
  });
});
