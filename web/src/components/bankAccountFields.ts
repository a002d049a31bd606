import type { BankAccountInput, ErrorCode } from "../protocol/wire";
import { ACCOUNT_TYPES, bankOf, universalBranchCode } from "./banks";

export const BANK_ACCOUNT_FIELDS = ["bank", "branchCode", "accountType", "holderName", "accountNumber"] as const;
export type BankAccountField = (typeof BANK_ACCOUNT_FIELDS)[number];
export type BankAccountDraft = Record<BankAccountField, string>;
export type BankAccountErrors = Partial<Record<BankAccountField, ErrorCode>>;

// What the server requires of an account (banking.rs, checked_bank_account). The account type
// always has one of its values.
const REQUIRED_BANK_ACCOUNT_FIELDS = ["bank", "branchCode", "holderName", "accountNumber"] as const satisfies readonly BankAccountField[];

// Bank account holder names are at most 30 characters.
export const HOLDER_NAME_MAX = 30;

export function emptyBankAccountDraft(holderName = ""): BankAccountDraft {
  return { bank: "", branchCode: "", accountType: "current", holderName: holderName.trim().slice(0, HOLDER_NAME_MAX).trimEnd(), accountNumber: "" };
}

/** Choosing a bank fills in its universal branch code; the code stays editable. */
export function chooseBank(draft: BankAccountDraft, bank: string): BankAccountDraft {
  return { ...draft, bank, branchCode: universalBranchCode(bank) || draft.branchCode };
}

/** The fields whose values differ between two drafts: what was said of their old values no longer stands. */
export function changedBankAccountFields(before: BankAccountDraft, after: BankAccountDraft): BankAccountField[] {
  return BANK_ACCOUNT_FIELDS.filter((field) => before[field] !== after[field]);
}

/**
 * The input to send, with no bank when none is chosen (the server names it missing among the
 * account's other mistakes); null only for an account type not on the list.
 */
export function bankAccountInputFrom(draft: BankAccountDraft): BankAccountInput | null {
  const accountType = ACCOUNT_TYPES.find((type) => type === draft.accountType);
  if (!accountType) return null;
  const bank = bankOf(draft.bank)?.id;
  return {
    // A key with no value stays off the wire.
    ...(bank ? { bank } : {}),
    branchCode: draft.branchCode.replace(/\s/g, ""),
    accountType,
    holderName: draft.holderName.trim(),
    accountNumber: draft.accountNumber.replace(/\s/g, ""),
  };
}

/** The required fields left blank (spaces alone count as blank), in the form's order. */
export function blankBankAccountFields(draft: BankAccountDraft): BankAccountField[] {
  return REQUIRED_BANK_ACCOUNT_FIELDS.filter((field) => draft[field].trim() === "");
}

/**
 * The input to send, and every required field left blank, at once. The account goes even with
 * blanks and no bank: the server's answer adds, in the same round, what only it can tell, so
 * the customer's and the settlement account's dialogs name every mistake at one press.
 */
export function bankAccountFormFrom(draft: BankAccountDraft): { input: BankAccountInput | null; errors: BankAccountErrors } {
  const errors: BankAccountErrors = {};
  for (const field of blankBankAccountFields(draft)) errors[field] = "required";
  return { input: bankAccountInputFrom(draft), errors };
}
