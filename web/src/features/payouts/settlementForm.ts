import { BANK_ACCOUNT_FIELDS, bankAccountFormFrom, type BankAccountDraft } from "../../components/bankAccountFields";
import type { BankAccountInput, ErrorCode } from "../../protocol/wire";

/** The account's fields, and the member's password or code that confirms the change. */
export const SETTLEMENT_FIELDS = [...BANK_ACCOUNT_FIELDS, "confirmation"] as const;
export type SettlementField = (typeof SETTLEMENT_FIELDS)[number];
export type SettlementErrors = Partial<Record<SettlementField, ErrorCode>>;

/**
 * The account to send, and every required field left blank, at once. A blank confirmation is
 * missing, as the server says too (it takes none as a guess); spaces are the password's own.
 */
export function settlementFormFrom(draft: BankAccountDraft, confirmation: string): { input: BankAccountInput | null; errors: SettlementErrors } {
  const { input, errors } = bankAccountFormFrom(draft);
  return { input, errors: confirmation === "" ? { ...errors, confirmation: "required" } : errors };
}
