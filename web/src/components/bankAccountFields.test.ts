import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import en from "../../../locales/en.json";
import afr from "../../../locales/afr.json";
import {
  accountDigitsHint,
  accountDigitsOf,
  BANK_ACCOUNT_FIELD_OF_CODE,
  bankAccountFieldsOfCode,
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

  describe("the bank's numbering", () => {
    const i18n = i18next.createInstance();
    beforeAll(async () => {
      await i18n.init({ lng: "en", resources: { en: { translation: en }, afr: { translation: afr } }, interpolation: { escapeValue: false } });
    });

    it("says how many digits the chosen bank's numbers have, in both languages", () => {
      expect(accountDigitsOf("capitec")).toEqual({ fewest: 10, most: 10 });
      expect(accountDigitsOf("")).toBeNull();
      expect(accountDigitsHint("capitec", i18n.t)).toBe("Capitec account numbers have 10 digits.");
      expect(accountDigitsHint("fnb", i18n.t)).toBe("FNB account numbers have 10 to 11 digits.");
      expect(accountDigitsHint("fnb", i18n.getFixedT("afr"))).toBe("FNB-rekeningnommers het 10 tot 11 syfers.");
      expect(accountDigitsHint("", i18n.t)).toBeUndefined();
    });

    it("gives every bank a length the clearing house can carry", () => {
      for (const bank of BANKS) {
        const [fewest, most] = bank.accountDigits;
        expect(fewest).toBeGreaterThanOrEqual(7);
        expect(most).toBeLessThanOrEqual(11);
        expect(fewest).toBeLessThanOrEqual(most);
      }
    });

    it("places each of the bank's refusals on its field, in any form holding an account", () => {
      expect(BANK_ACCOUNT_FIELD_OF_CODE.account_number_length).toBe("accountNumber");
      expect(BANK_ACCOUNT_FIELD_OF_CODE.bank_account_holder_mismatch).toBe("holderName");
      expect(BANK_ACCOUNT_FIELD_OF_CODE.bank_account_type_mismatch).toBe("accountType");
      expect(bankAccountFieldsOfCode("mandate.bankAccount.").bank_account_no_debits).toBe("mandate.bankAccount.accountNumber");
    });
  });
});
