import { describe, expect, it } from "vitest";
import type { PaymentMethodSettings } from "../../protocol/wire";
import { changedPaymentFields, emptyPaymentDraft, offeredMethods, paymentInputFrom, type Payer, type PaymentDraft } from "./paymentForm";

const SETTINGS: PaymentMethodSettings = {
  enabled: ["debicheck", "eft_debit_order", "card"],
  debicheckApprovalWindow: "tt2_batch",
  debicheckAllowTracking: true,
  debicheckTrackingDays: 7,
  debicheckAllowDateAdjustment: true,
  debicheckAbbreviatedName: "GYMCO",
  version: 4,
};

const PAYER: Payer = { idNumber: "8801235111088", cellphone: "+27821234567" };

/** A form as it opens once the customer is chosen: nothing else filled in. */
function untouched(kind: PaymentDraft["kind"]): PaymentDraft {
  return { ...emptyPaymentDraft(kind, SETTINGS), customerId: "cus_1" };
}

function recurringDebiCheck(): PaymentDraft {
  const draft = emptyPaymentDraft("recurring", SETTINGS);
  return {
    ...draft,
    customerId: "cus_1",
    amount: "299.90",
    startDate: "2026-03-01",
    dayToProcess: "31",
    firstCollection: "150",
    mandate: {
      ...draft.mandate,
      contractReference: " GYM2026 ",
      maximumCollection: "400",
      bankAccount: { bank: "absa", branchCode: "632005", accountType: "current", holderName: "T Mokoena", accountNumber: "4000 0000 01" },
    },
  };
}

describe("new payment form", () => {
  it("offers only enabled methods that use a mandate", () => {
    expect(offeredMethods(SETTINGS)).toEqual(["debicheck", "eft_debit_order"]);
    expect(offeredMethods(undefined)).toEqual([]);
  });

  it("starts a new mandate from the DebiCheck defaults", () => {
    const draft = emptyPaymentDraft("recurring", SETTINGS);
    expect(draft.mandate).toMatchObject({ method: "debicheck", approvalWindow: "tt2_batch", allowTracking: true, trackingDays: "7", allowDateAdjustment: true, abbreviatedName: "GYMCO" });
  });

  it("maps a recurring DebiCheck payment with a new mandate and bank account", () => {
    const { input, errors } = paymentInputFrom(recurringDebiCheck());
    expect(errors).toEqual({});
    expect(input).toEqual({
      customerId: "cus_1",
      kind: "recurring",
      amountCents: 29990,
      transactionReference: "",
      startDate: "2026-03-01",
      interval: "monthly",
      dayToProcess: 31,
      firstCollectionCents: 15000,
      startRunning: true,
      mandate: {
        t: "New",
        input: {
          method: "debicheck",
          bankAccount: { t: "New", input: { bank: "absa", branchCode: "632005", accountType: "current", holderName: "T Mokoena", accountNumber: "4000000001" } },
          clientType: "resident_individual",
          industry: "subscription",
          contractReference: "GYM2026",
          maximumCollectionCents: 40000,
          allowTracking: true,
          trackingDays: 7,
          allowDateAdjustment: true,
          variableAmount: false,
          adjustmentCategory: "never",
          adjustmentRate: "",
          approvalWindow: "tt2_batch",
          abbreviatedName: "GYMCO",
        },
      },
    });
  });

  it("maps a once-off payment under an existing mandate, leaving schedule fields off", () => {
    const draft: PaymentDraft = {
      ...emptyPaymentDraft("once", SETTINGS),
      customerId: "cus_1",
      mandateChoice: "existing",
      mandateId: "man_9",
      amount: "1 000,5",
      dateToProcess: "2026-04-01",
      transactionReference: " INV-7 ",
      startRunning: false,
    };
    expect(paymentInputFrom(draft, { existingMethod: "eft_debit_order" }).input).toEqual({
      customerId: "cus_1",
      kind: "once",
      mandate: { t: "Existing", mandateId: "man_9" },
      amountCents: 100050,
      dateToProcess: "2026-04-01",
      transactionReference: "INV-7",
      startRunning: false,
    });
    expect(paymentInputFrom(draft, { existingMethod: "debicheck" }).input?.startRunning).toBe(true);
  });

  it("sends adjustments and tracking only where they apply", () => {
    const draft = recurringDebiCheck();
    draft.mandate = { ...draft.mandate, method: "eft_debit_order", adjustmentCategory: "annually", adjustmentType: "rate", adjustmentRate: " 5.5 ", adjustmentAmount: "10" };
    const mandate = paymentInputFrom(draft).input?.mandate;
    expect(mandate?.t === "New" && mandate.input).toMatchObject({ allowTracking: false, adjustmentCategory: "annually", adjustmentType: "rate", adjustmentRate: "5.5" });
    expect(mandate?.t === "New" && "approvalWindow" in mandate.input).toBe(false);
    expect(mandate?.t === "New" && "trackingDays" in mandate.input).toBe(false);
    expect(mandate?.t === "New" && "adjustmentAmountCents" in mandate.input).toBe(false);
  });

  it("holds back a form with no customer, naming every mistake it sees beside its field", () => {
    const draft = { ...recurringDebiCheck(), customerId: "", amount: "12.345", firstCollection: "abc", dayToProcess: "last" };
    draft.mandate = { ...draft.mandate, bankAccount: { ...draft.mandate.bankAccount, bank: "" } };
    const built = paymentInputFrom(draft);
    expect(built.input).toBeNull();
    expect(built.errors).toEqual({
      customerId: "required",
      amountCents: "invalid_amount",
      firstCollectionCents: "invalid_amount",
      dayToProcess: "day_to_process_out_of_range",
      "mandate.bankAccount.bank": "required",
    });
  });

  it("sends a form with no bank and no amount, so the server's answer names them with what only it can tell", () => {
    const built = paymentInputFrom(untouched("recurring"), { payer: { idNumber: "8801235111088", cellphone: " " } });
    expect(built.errors).toEqual({
      amountCents: "required",
      "mandate.bankAccount.bank": "required",
      "mandate.bankAccount.branchCode": "required",
      "mandate.bankAccount.holderName": "required",
      "mandate.bankAccount.accountNumber": "required",
      "customer.cellphone": "required",
      "mandate.contractReference": "required",
      "mandate.maximumCollectionCents": "required",
      startDate: "required",
      dayToProcess: "required",
    });
    expect(built.input).toMatchObject({ customerId: "cus_1", kind: "recurring", interval: "monthly" });
    expect(built.input && "amountCents" in built.input).toBe(false);
    const mandate = built.input?.mandate;
    const account = mandate?.t === "New" && mandate.input.bankAccount.t === "New" ? mandate.input.bankAccount.input : null;
    expect(account).toEqual({ branchCode: "", accountType: "current", holderName: "", accountNumber: "" });
  });

  it("sends a required amount or day it cannot read as left out, keeping its own word beside it", () => {
    const draft = { ...recurringDebiCheck(), amount: "12.345", dayToProcess: "last" };
    draft.mandate = { ...draft.mandate, maximumCollection: "lots" };
    const built = paymentInputFrom(draft, { payer: PAYER });
    expect(built.errors).toEqual({
      amountCents: "invalid_amount",
      dayToProcess: "day_to_process_out_of_range",
      "mandate.maximumCollectionCents": "invalid_amount",
    });
    expect(built.input).not.toBeNull();
    expect(built.input && ("amountCents" in built.input || "dayToProcess" in built.input)).toBe(false);
    expect(built.input?.mandate?.t === "New" && "maximumCollectionCents" in built.input.mandate.input).toBe(false);
  });

  it("holds back an optional amount it cannot read, which the payment would otherwise be made without", () => {
    expect(paymentInputFrom({ ...recurringDebiCheck(), firstCollection: "abc" }, { payer: PAYER })).toEqual({
      input: null,
      errors: { firstCollectionCents: "invalid_amount" },
    });
    const once: PaymentDraft = { ...recurringDebiCheck(), kind: "once", dateToProcess: "2026-04-01" };
    once.mandate = { ...once.mandate, maximumCollection: "lots" };
    expect(paymentInputFrom(once, { payer: PAYER })).toEqual({ input: null, errors: { "mandate.maximumCollectionCents": "invalid_amount" } });
  });

  it("asks a once-off payment for its date, and no maximum", () => {
    const draft = untouched("once");
    draft.mandate = { ...draft.mandate, bankAccount: { ...draft.mandate.bankAccount, holderName: "T Mokoena" } };
    expect(paymentInputFrom(draft, { payer: PAYER }).errors).toEqual({
      amountCents: "required",
      "mandate.bankAccount.bank": "required",
      "mandate.bankAccount.branchCode": "required",
      "mandate.bankAccount.accountNumber": "required",
      "mandate.contractReference": "required",
      dateToProcess: "required",
    });
  });

  it("asks an EFT debit order for no contract reference, maximum or payer identity", () => {
    const draft = recurringDebiCheck();
    draft.mandate = { ...draft.mandate, method: "eft_debit_order", contractReference: "", maximumCollection: "" };
    const built = paymentInputFrom(draft, { payer: { idNumber: "", cellphone: "" } });
    expect(built.errors).toEqual({});
    expect(built.input).not.toBeNull();
  });

  it("sends a form it can carry even with blanks, so the server's answer adds what only it can tell", () => {
    const draft = recurringDebiCheck();
    draft.startDate = "";
    draft.mandate = { ...draft.mandate, contractReference: "  ", bankAccount: { ...draft.mandate.bankAccount, accountNumber: "" } };
    const built = paymentInputFrom(draft, { payer: PAYER });
    expect(built.errors).toEqual({ startDate: "required", "mandate.contractReference": "required", "mandate.bankAccount.accountNumber": "required" });
    expect(built.input).toMatchObject({ customerId: "cus_1", amountCents: 29990, interval: "monthly", dayToProcess: 31 });
    expect(built.input && "startDate" in built.input).toBe(false);
  });

  it("asks an adjusted amount for its type, then for the rate or amount of that type", () => {
    const draft = recurringDebiCheck();
    draft.mandate = { ...draft.mandate, adjustmentCategory: "annually" };
    expect(paymentInputFrom(draft, { payer: PAYER }).errors).toEqual({ "mandate.adjustmentType": "adjustment_type_required" });
    draft.mandate = { ...draft.mandate, adjustmentType: "rate", adjustmentRate: " " };
    expect(paymentInputFrom(draft, { payer: PAYER }).errors).toEqual({ "mandate.adjustmentRate": "adjustment_value_required" });
    draft.mandate = { ...draft.mandate, adjustmentType: "amount", adjustmentAmount: "" };
    expect(paymentInputFrom(draft, { payer: PAYER }).errors).toEqual({ "mandate.adjustmentAmountCents": "adjustment_value_required" });
    // A once-off payment is never adjusted.
    expect(paymentInputFrom({ ...draft, kind: "once", dateToProcess: "2026-04-01" }, { payer: PAYER }).errors).toEqual({});
  });

  it("asks an existing mandate only to be chosen, leaving the new mandate's fields alone, and sends the rest", () => {
    const draft: PaymentDraft = { ...untouched("once"), mandateChoice: "existing", amount: "75", dateToProcess: "2026-04-01" };
    expect(paymentInputFrom(draft, { payer: { idNumber: "", cellphone: "" } })).toEqual({
      input: { customerId: "cus_1", kind: "once", amountCents: 7500, dateToProcess: "2026-04-01", transactionReference: "", startRunning: true },
      errors: { mandate: "required" },
    });
  });

  it("turns tracking days that are not a number into a mistake the form keeps, and blank ones into a required field", () => {
    const draft = recurringDebiCheck();
    draft.mandate = { ...draft.mandate, trackingDays: "ten" };
    const unread = paymentInputFrom(draft, { payer: PAYER });
    expect(unread.errors).toEqual({ "mandate.trackingDays": "tracking_days_out_of_range" });
    // Sent without them: the server refuses tracking with no days too.
    expect(unread.input?.mandate).toMatchObject({ t: "New", input: { allowTracking: true } });
    expect(unread.input?.mandate?.t === "New" && "trackingDays" in unread.input.mandate.input).toBe(false);
    draft.mandate = { ...draft.mandate, trackingDays: "" };
    const built = paymentInputFrom(draft, { payer: PAYER });
    expect(built.errors).toEqual({ "mandate.trackingDays": "required" });
    expect(built.input).not.toBeNull();
  });

  it("names the fields an edit touched, each by the name its error has", () => {
    const draft = recurringDebiCheck();
    expect(changedPaymentFields(draft, { ...draft, amount: "300" })).toEqual(["amountCents"]);
    expect(changedPaymentFields(draft, { ...draft, firstCollection: "", dayToProcess: "1" })).toEqual(["dayToProcess", "firstCollectionCents"]);
    expect(changedPaymentFields(draft, { ...draft, mandate: { ...draft.mandate, maximumCollection: "500" } })).toEqual([
      "mandate.maximumCollectionCents",
    ]);
    const account = { ...draft.mandate.bankAccount, accountNumber: "4000000002", holderName: "T Mokoena-Dlamini" };
    expect(changedPaymentFields(draft, { ...draft, mandate: { ...draft.mandate, bankAccount: account } })).toEqual([
      "mandate.bankAccount.holderName",
      "mandate.bankAccount.accountNumber",
    ]);
    expect(changedPaymentFields(draft, { ...draft, mandateChoice: "existing" })).toEqual(["mandate"]);
    expect(changedPaymentFields(draft, { ...draft, startRunning: false })).toEqual([]);
    expect(changedPaymentFields(draft, { ...draft })).toEqual([]);
  });

  it("takes a changed method as the answer to the payer's missing ID number and cellphone", () => {
    const draft = recurringDebiCheck();
    expect(changedPaymentFields(draft, { ...draft, mandate: { ...draft.mandate, method: "eft_debit_order" } })).toEqual([
      "mandate.method",
      "customer.idNumber",
      "customer.cellphone",
    ]);
  });
});
