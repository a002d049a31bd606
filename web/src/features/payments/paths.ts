import type { PaymentKind, PaymentStatus } from "../../protocol/wire";

export const PAYMENT_STATUSES: readonly PaymentStatus[] = ["pending", "running", "paused", "stopped", "cancelled", "completed"];

/** Once-off and recurring payments each have their own list and detail addresses. */
export function paymentsPath(kind: PaymentKind): string {
  return kind === "once" ? "/payments/one-time" : "/payments/recurring";
}

export function paymentPath(kind: PaymentKind, id: string): string {
  return `${paymentsPath(kind)}/${id}`;
}
