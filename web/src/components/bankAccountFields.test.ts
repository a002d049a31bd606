import { describe, expect, it } from "vitest";
import {
  bankAccountFormFrom,
  bankAccountInputFrom,
  blankBankAccountFields,
  changedBankAccountFields,
  chooseBank,
  emptyBankAccountDraft,
} from "./bankAccountFields";
import { BANKS } from "../protocol/wire";
import { bankName, maskAccountNumber, universalBranchCode } from "./banks";

describe("bank account fields", () => {
  it("fills the branch code with the chosen bank's universal code", () => {
    const draft = chooseBank(emptyBankAccountDraft(), "capitec");
    expect(draft.branchCode).toBe("470010");
    expect(chooseBank({ ...draft, branchCode: "123456" }, "standard_bank").branchCode).toBe("051001");
  });

  it("knows every bank's universal branch code as six digits", () => {
    expect(BANKS).toHaveLength(21);
    for (const bank of BANKS) expect(bank.branchCode, bank.id).toMatch(/^\d{6}$/);
    expect(universalBranchCode("fnb")).toBe("250655");
    expect(bankName("rand_merchant_bank")).toBe("Rand Merchant Bank");
  });

  it("leaves a bank not chosen off the input, and sends digits without spaces", () => {
    expect(bankAccountInputFrom(emptyBankAccountDraft())).toEqual({ branchCode: "", accountType: "current", holderName: "", accountNumber: "" });
    const draft = { ...chooseBank(emptyBankAccountDraft(" Thandi Nkosi "), "capitec"), accountNumber: "1234 567 890" };
    expect(bankAccountInputFrom(draft)).toEqual({
      bank: "capitec",
      branchCode: "470010",
      accountType: "current",
      holderName: "Thandi Nkosi",
      accountNumber: "1234567890",
    });
  });

  it("names every required field left blank, spaces counting as blank, and never the account type", () => {
    expect(blankBankAccountFields(emptyBankAccountDraft())).toEqual(["bank", "branchCode", "holderName", "accountNumber"]);
    const draft = { ...chooseBank(emptyBankAccountDraft(" "), "capitec"), accountNumber: "  " };
    expect(blankBankAccountFields(draft)).toEqual(["holderName", "accountNumber"]);
    expect(blankBankAccountFields({ ...draft, holderName: "T Nkosi", accountNumber: "1", accountType: "" })).toEqual([]);
  });

  it("finds every blank field of an empty form at once, and sends it without a bank all the same", () => {
    expect(bankAccountFormFrom(emptyBankAccountDraft("Thandi Nkosi"))).toEqual({
      input: { branchCode: "", accountType: "current", holderName: "Thandi Nkosi", accountNumber: "" },
      errors: { bank: "required", branchCode: "required", accountNumber: "required" },
    });
  });

  it("sends an account with a bank even with blanks, so the server's answer comes with the form's findings", () => {
    const draft = { ...chooseBank(emptyBankAccountDraft(), "fnb"), accountNumber: "62001234567" };
    expect(bankAccountFormFrom(draft)).toEqual({
      input: { bank: "fnb", branchCode: "250655", accountType: "current", holderName: "", accountNumber: "62001234567" },
      errors: { holderName: "required" },
    });
  });

  it("names the fields a change touched, the branch code a chosen bank fills in among them", () => {
    const draft = emptyBankAccountDraft("Thandi Nkosi");
    expect(changedBankAccountFields(draft, chooseBank(draft, "capitec"))).toEqual(["bank", "branchCode"]);
    const withCode = { ...draft, branchCode: "470010" };
    expect(changedBankAccountFields(withCode, chooseBank(withCode, "capitec"))).toEqual(["bank"]);
    expect(changedBankAccountFields(draft, { ...draft })).toEqual([]);
  });

  it("starts the holder name from the customer's name, cut to 30 characters", () => {
    expect(emptyBankAccountDraft("A Very Long Customer Name Indeed (Pty) Ltd").holderName).toHaveLength(30);
  });

  it("masks all but the last four digits", () => {
    expect(maskAccountNumber("1234567890")).toBe("•••• 7890");
    expect(maskAccountNumber("123")).toBe("•••• 123");
  });
});
