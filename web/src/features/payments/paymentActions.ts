import type { Payment, PaymentAction, Transaction } from "../../protocol/wire";

// Only code 02 (not provided for) may be re-presented; every other code needs a new mandate.
const RETRYABLE_CODE = "02";

/**
 * The actions that make sense for a payment as it stands (the payment lifecycle of
 * DOMAIN.md); the server still decides, and its refusal is shown if it says no.
 */
export function paymentActions(payment: Payment, lastTransaction?: Transaction): PaymentAction[] {
  const actions: PaymentAction[] = [];
  switch (payment.status) {
    case "pending":
      // Only an EFT debit order waits for the merchant; the others wait for the mandate.
      if (payment.method === "eft_debit_order") actions.push("start");
      actions.push("cancel");
      break;
    case "running":
      actions.push("pause", "cancel");
      break;
    case "paused":
      actions.push("resume", "cancel");
      break;
    case "stopped":
    case "cancelled":
    case "completed":
      break;
  }
  if (canRetry(payment, lastTransaction)) actions.unshift("retry");
  return actions;
}

function canRetry(payment: Payment, last?: Transaction): boolean {
  if (payment.status === "stopped") return payment.stopReason === RETRYABLE_CODE;
  if (payment.status !== "running" && payment.status !== "paused") return false;
  return last?.status === "unpaid" && last.unpaidCode === RETRYABLE_CODE;
}

/** The newest debit of a payment: the last presented, by attempt and then action date. */
export function latestTransaction(transactions: readonly Transaction[]): Transaction | undefined {
  return [...transactions].sort((a, b) => b.createdAt - a.createdAt || b.attempt - a.attempt)[0];
}
