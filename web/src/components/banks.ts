import type { AccountType } from "../protocol/wire";
import { BANKS } from "../protocol/wire";

// BANKS is the server's one bank list, generated into the protocol types.

export const ACCOUNT_TYPES: readonly AccountType[] = ["current", "savings", "transmission"];

export function bankOf(id: string): (typeof BANKS)[number] | undefined {
  return BANKS.find((bank) => bank.id === id);
}

/** The bank's own name; an id this build does not know yet shows as sent. */
export function bankName(id: string): string {
  return bankOf(id)?.name ?? id;
}

export function universalBranchCode(id: string): string {
  return bankOf(id)?.branchCode ?? "";
}

/** Only the last 4 digits show: "•••• 6789". */
export function maskAccountNumber(number: string): string {
  return `•••• ${number.slice(-4)}`;
}
