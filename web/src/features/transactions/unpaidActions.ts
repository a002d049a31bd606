import type { Transaction, UnpaidAction } from "../../protocol/wire";
import { unpaidRemedy } from "./unpaidCodes";

/** The ways to follow up an unpaid, as the server's `UnpaidAction` names them. */
export type UnpaidActionKind = UnpaidAction["t"];

export const UNPAID_ACTIONS: readonly UnpaidActionKind[] = ["Represent", "SendPayLink", "RequestMandate", "EmailPayer"];

/** Whether the transaction is a debit order the bank returned unpaid: the only kind followed up. */
export function isFollowedUp(transaction: Transaction): boolean {
  return transaction.status === "unpaid" && Boolean(transaction.paymentId) && Boolean(transaction.customerId);
}

/**
 * The follow-ups offered for an unpaid: presenting it again only for a code the bank allows
 * again (02), a new mandate only for a schedule (a once-off debit has no terms to repeat).
 */
export function offeredActions(transaction: Transaction): UnpaidActionKind[] {
  if (!isFollowedUp(transaction)) return [];
  return UNPAID_ACTIONS.filter((action) => {
    if (action === "Represent") return unpaidRemedy(transaction.unpaidCode ?? "") === "retry";
    if (action === "RequestMandate") return transaction.paymentKind === "recurring";
    return true;
  });
}
