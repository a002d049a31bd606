import type { BankAccountInput } from "../protocol/wire";
import { ACCOUNT_TYPES, bankOf, universalBranchCode } from "./banks";

export const BANK_ACCOUNT_FIELDS = ["bank", "branchCode", "accountType", "holderName", "accountNumber"] as const;
export type BankAccountField = (typeof BANK_ACCOUNT_FIELDS)[number];
export type BankAccountDraft = Record<BankAccountField, string>;

// Bank account holder names are at most 30 characters.
export const HOLDER_NAME_MAX = 30;

export function emptyBankAccountDraft(holderName = ""): BankAccountDraft {
  return { bank: "", branchCode: "", accountType: "current", holderName: holderName.trim().slice(0, HOLDER_NAME_MAX).trimEnd(), accountNumber: "" };
}

/** Choosing a bank fills in its universal branch code; the code stays editable. */
export function chooseBank(draft: BankAccountDraft, bank: string): BankAccountDraft {
  return { ...draft, bank, branchCode: universalBranchCode(bank) || draft.branchCode };
}

/** The input to send, or null when no bank is chosen (the one thing the wire cannot carry). */
export function bankAccountInputFrom(draft: BankAccountDraft): BankAccountInput | null {
  const bank = bankOf(draft.bank);
  const accountType = ACCOUNT_TYPES.find((type) => type === draft.accountType);
  if (!bank || !accountType) return null;
  return {
    bank: bank.id,
    branchCode: draft.branchCode.replace(/\s/g, ""),
    accountType,
    holderName: draft.holderName.trim(),
    accountNumber: draft.accountNumber.replace(/\s/g, ""),
  };
}
