import type { PaymentKind, PaymentMethod } from "../protocol/wire";

/**
 * The methods a page of each kind may take: the server refuses the others. Signing a DebiCheck
 * mandate on the pay page is not built yet, so recurring pages collect by card on file.
 * Shared because orders are paid through pay pages, so their method filter offers the same.
 */
export const PAGE_METHODS: Record<PaymentKind, readonly PaymentMethod[]> = {
  once: ["card", "instant_eft"],
  recurring: ["card"],
};
