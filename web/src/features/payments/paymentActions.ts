import type { Payment, PaymentAction } from "../../protocol/wire";

// Only code 02 (not provided for) may be re-presented; every other code needs a new mandate.
const RETRYABLE_CODE = "02";

/**
 * The actions that make sense for a payment as it stands (the payment lifecycle of
 * DOMAIN.md); the server still decides, and its refusal is shown if it says no.
 */
export function paymentActions(payment: Payment): PaymentAction[] {
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
  if (canRetry(payment)) actions.unshift("retry");
  return actions;
}

// The server pauses a payment whose debit came back unpaid 02 and re-presents it when
// the merchant retries (a recurring one re-presents it on its next date by itself).
function canRetry(payment: Payment): boolean {
  return payment.status === "paused" && payment.stopReason === RETRYABLE_CODE;
}
