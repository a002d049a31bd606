import { randToCents } from "../../components/listView";
import type { Card, CardPauseReason, CardSchedule, Command, ErrorCode, PageInterval } from "../../protocol/wire";

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

export type ScheduleCardCommand = Extract<Command, { t: "ScheduleCard" }>;
export type ScheduleDraft = { amount: string; interval: PageInterval; reference: string; startDate: string };
export type ScheduleField = "amountCents" | "reference" | "startDate";
export type ScheduleErrors = Partial<Record<ScheduleField, ErrorCode>>;

/** The ScheduleCard command of a filled-in schedule form, or what is already wrong with it. */
export function scheduleFrom(cardId: string, draft: ScheduleDraft, today: string): { command: ScheduleCardCommand | null; errors: ScheduleErrors } {
  const { command: charge, errors: chargeErrors } = chargeFrom(cardId, { amount: draft.amount, reference: draft.reference });
  const errors: ScheduleErrors = { ...chargeErrors };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.startDate)) errors.startDate = draft.startDate ? "invalid_date" : "required";
  else if (draft.startDate < today) errors.startDate = "date_in_past";
  if (Object.keys(errors).length > 0 || !charge) return { command: null, errors };
  return {
    command: { t: "ScheduleCard", cardId, amountCents: charge.amountCents, interval: draft.interval, reference: charge.reference, startDate: draft.startDate },
    errors,
  };
}

/** How a card's schedule shows in the list: its tone and the words' key. */
export type ScheduleKey =
  | "cards.schedule.stopped"
  | `cards.schedule.paused.${CardPauseReason}`
  | "cards.schedule.retrying"
  | "cards.schedule.active";

export function scheduleState(schedule: CardSchedule): { tone: "green" | "amber" | "red" | "zinc"; key: ScheduleKey } {
  if (schedule.status === "stopped") return { tone: "zinc", key: "cards.schedule.stopped" };
  if (schedule.status === "paused") {
    const reason: CardPauseReason = schedule.pauseReason ?? "retries_exhausted";
    return { tone: "red", key: `cards.schedule.paused.${reason}` };
  }
  if (schedule.retryDate) return { tone: "amber", key: "cards.schedule.retrying" };
  return { tone: "green", key: "cards.schedule.active" };
}
