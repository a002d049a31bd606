import { randToCents } from "../../components/listView";
import type { Card, Command, ErrorCode } from "../../protocol/wire";

export type ChargeCardCommand = Extract<Command, { t: "ChargeCard" }>;

/** MM/YY as printed on the card. */
export function formatExpiry(card: Pick<Card, "expiryMonth" | "expiryYear">): string {
  return `${String(card.expiryMonth).padStart(2, "0")}/${String(card.expiryYear % 100).padStart(2, "0")}`;
}

/** A card is good through the last day of its expiry month. `today` is `YYYY-MM-DD`. */
export function isExpired(card: Pick<Card, "expiryMonth" | "expiryYear">, today: string): boolean {
  const [year, month] = today.split("-").map(Number);
  return card.expiryYear < year || (card.expiryYear === year && card.expiryMonth < month);
}

export const CHARGE_REFERENCE_MAX = 30;

export type ChargeDraft = { amount: string; reference: string };
export type ChargeField = "amountCents" | "reference";
export type ChargeErrors = Partial<Record<ChargeField, ErrorCode>>;

/** The ChargeCard command of a filled-in charge form, or what is already wrong with it. */
export function chargeFrom(cardId: string, draft: ChargeDraft): { command: ChargeCardCommand | null; errors: ChargeErrors } {
  const errors: ChargeErrors = {};
  const cents = randToCents(draft.amount);
  if (cents === undefined) errors.amountCents = "required";
  else if (cents === "invalid" || cents <= 0) errors.amountCents = "invalid_amount";
  const reference = draft.reference.trim();
  if (!reference) errors.reference = "required";
  else if ([...reference].length > CHARGE_REFERENCE_MAX) errors.reference = "too_long";
  if (Object.keys(errors).length > 0 || typeof cents !== "number") return { command: null, errors };
  return { command: { t: "ChargeCard", cardId, amountCents: cents, reference }, errors };
}
