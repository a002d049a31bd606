import { describe, expect, it } from "vitest";
import { chooseBank, emptyBankAccountDraft } from "../../components/bankAccountFields";
import { settlementFormFrom } from "./settlementForm";

describe("settlement account form", () => {
  it("names every blank field and the missing password of an empty form at once", () => {
    expect(settlementFormFrom(emptyBankAccountDraft(), "")).toEqual({
      input: { branchCode: "", accountType: "current", holderName: "", accountNumber: "" },
      errors: { bank: "required", branchCode: "required", holderName: "required", accountNumber: "required", confirmation: "required" },
    });
  });

  it("sends an account with a bank and no password, the password named with the server's findings", () => {
    const built = settlementFormFrom({ ...chooseBank(emptyBankAccountDraft(), "fnb"), holderName: "Karoo Gym" }, "");
    expect(built.input).toMatchObject({ bank: "fnb", branchCode: "250655", holderName: "Karoo Gym", accountNumber: "" });
    expect(built.errors).toEqual({ accountNumber: "required", confirmation: "required" });
  });

  it("leaves a password of spaces to the server: spaces are part of a password", () => {
    const draft = { ...chooseBank(emptyBankAccountDraft("Karoo Gym"), "fnb"), accountNumber: "62001234567" };
    expect(settlementFormFrom(draft, " ").errors).toEqual({});
  });
});
