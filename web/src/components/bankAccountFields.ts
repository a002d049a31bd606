import type { TFunction } from "i18next";
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

/**
 * Codes that are about one field of an account even when the server names none: the form's own
 * rules and the bank's account verification (banking.rs, bank_verification).
 */
export const BANK_ACCOUNT_FIELD_OF_CODE: Partial<Record<ErrorCode, BankAccountField>> = {
  branch_code_mismatch: "branchCode",
  invalid_branch_code: "branchCode",
  invalid_account_number: "accountNumber",
  account_number_length: "accountNumber",
  duplicate_bank_account: "accountNumber",
  bank_account_not_found: "accountNumber",
  bank_account_closed: "accountNumber",
  bank_account_no_debits: "accountNumber",
  bank_account_holder_mismatch: "holderName",
  bank_account_type_mismatch: "accountType",
};

/** The same codes, for an account held under `prefix` in a larger form (`mandate.bankAccount.`). */
export function bankAccountFieldsOfCode<P extends string>(prefix: P): Partial<Record<ErrorCode, `${P}${BankAccountField}`>> {
  const placed: Partial<Record<ErrorCode, `${P}${BankAccountField}`>> = {};
  for (const [code, field] of Object.entries(BANK_ACCOUNT_FIELD_OF_CODE)) placed[code as ErrorCode] = `${prefix}${field}`;
  return placed;
}

/** How many digits the chosen bank's account numbers have, for the field's hint; null before a bank is chosen. */
export function accountDigitsOf(bank: string): { fewest: number; most: number } | null {
  const listed = bankOf(bank);
  return listed ? { fewest: listed.accountDigits[0], most: listed.accountDigits[1] } : null;
}

/** The account number field's hint: how many digits the chosen bank's numbers have. */
export function accountDigitsHint(bank: string, t: TFunction): string | undefined {
  const listed = bankOf(bank);
  const digits = accountDigitsOf(bank);
  if (!listed || !digits) return undefined;
  return digits.fewest === digits.most
    ? t("bankAccounts.digitsExactly", { bank: listed.name, digits: digits.fewest })
    : t("bankAccounts.digitsBetween", { bank: listed.name, fewest: digits.fewest, most: digits.most });
}
