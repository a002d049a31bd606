import { listRequest, type ListView } from "../../components/listView";
import type { SortOrder, TransactionFilter, TransactionStatus } from "../../protocol/wire";

export const TRANSACTION_STATUSES: readonly TransactionStatus[] = [
  "pending",
  "sent_to_bank",
  "accepted_by_bank",
  "rejected_by_bank",
  "in_tracking",
  "paid",
  "unpaid",
  "disputed",
  "reversed",
  "cancelled",
];

export type TransactionView = ListView<TransactionStatus>;

export type TransactionRequest = { filter: TransactionFilter; sort: SortOrder; invalid: ("min" | "max")[] };

/** What the server is asked for a view: the list, its export and the key that tells them apart. */
export function transactionRequest(view: TransactionView): TransactionRequest & { key: string } {
  const { filter, sort, invalid } = listRequest(view);
  return { filter, sort, invalid, key: JSON.stringify([filter, sort]) };
}

/**
 * Where a transaction stands with its fee: charged once paid, still to come while the debit is on
 * its way, and none when the money never arrived or went back (the ledger gives the fee back).
 */
export function feeStanding(status: TransactionStatus): "charged" | "whenPaid" | "none" {
  switch (status) {
    case "paid":
      return "charged";
    case "pending":
    case "sent_to_bank":
    case "accepted_by_bank":
    case "in_tracking":
      return "whenPaid";
    default:
      return "none";
  }
}
