import type { PaymentKind, PaymentMethod } from "../protocol/wire";

/**
 * The methods a page of each kind may take: the server refuses the others. A recurring page
 * collects by card on file, or (with a fixed amount) has the payer sign a DebiCheck mandate.
 * Shared because orders are paid through pay pages, so their method filter offers the same.
 */
export const PAGE_METHODS: Record<PaymentKind, readonly PaymentMethod[]> = {
  once: ["card", "instant_eft"],
  recurring: ["card", "debicheck"],
};

/** What a page of each kind starts with when none of its methods carry over. */
export const PAGE_DEFAULT_METHODS: Record<PaymentKind, readonly PaymentMethod[]> = {
  once: ["card", "instant_eft"],
  recurring: ["card"],
};

/** Methods that take money on the page itself, and so make orders: a DebiCheck page makes a mandate instead. */
export const ORDER_PAGE_METHODS: readonly PaymentMethod[] = ["card", "instant_eft"];
