import type { Payment, UpcomingCollection } from "../../protocol/wire";

// Home's "Upcoming collections" placed in the tab from a payment's delta, so a teammate's new
// debit shows as soon as the delta lands instead of after the figures are asked for again. The
// rules are the server's (`domain/transactions.rs` `get_dashboard`): a running payment's next
// debit and its unpaid 02 presented again, soonest first (then by payment), the first eight
// listed and the rest counted.

export const UPCOMING_LIMIT = 8;

export type UpcomingView = { upcoming: UpcomingCollection[]; more: number };

/** What a payment has scheduled: its next debit, and an unpaid 02 presented again. */
export function entriesOf(payment: Payment): UpcomingCollection[] {
  if (payment.status !== "running") return [];
  const entries: UpcomingCollection[] = [];
  const { id: paymentId, customerName, method } = payment;
  if (payment.nextActionDate) {
    const first = payment.firstCollectionCents !== undefined && payment.attempts === 0;
    const amountCents = first ? (payment.firstCollectionCents ?? payment.amountCents) : payment.amountCents;
    entries.push({ paymentId, customerName, method, amountCents, actionDate: payment.nextActionDate, representation: false });
  }
  if (payment.representationDate && payment.representationCents !== undefined) {
    entries.push({ paymentId, customerName, method, amountCents: payment.representationCents, actionDate: payment.representationDate, representation: true });
  }
  return entries;
}

/** Negative when `a` is listed before `b`: the day, then the payment, the regular debit first. */
export function compareUpcoming(a: UpcomingCollection, b: UpcomingCollection): number {
  if (a.actionDate !== b.actionDate) return a.actionDate < b.actionDate ? -1 : 1;
  if (a.paymentId !== b.paymentId) return a.paymentId < b.paymentId ? -1 : 1;
  return Number(a.representation) - Number(b.representation);
}

/**
 * The view with `payment` as it is now, or null when only the server can tell. `before` is the
 * payment as this tab knew it before the change (undefined when it did not know it): without
 * it, a payment the view does not show in full may have had debits among the ones counted.
 */
export function placeUpcoming(view: UpcomingView, payment: Payment, before: Payment | undefined, limit = UPCOMING_LIMIT): UpcomingView | null {
  const shownBefore = view.upcoming.filter((entry) => entry.paymentId === payment.id).length;
  const isNew = payment.createdAt === payment.updatedAt && shownBefore === 0;
  let hadBefore: number;
  if (before) hadBefore = entriesOf(before).length;
  else if (isNew) hadBefore = 0;
  else if (view.more === 0) hadBefore = shownBefore;
  else return null;
  if (hadBefore < shownBefore) return null;

  const entries = entriesOf(payment);
  const total = view.upcoming.length + view.more - hadBefore + entries.length;
  const candidates = [...view.upcoming.filter((entry) => entry.paymentId !== payment.id), ...entries].sort(compareUpcoming);
  // Debits counted but not listed (other payments') all come after the last listed one: a
  // candidate after it may belong among them, so only the ones before it are placed for sure.
  const hiddenOthers = view.more - (hadBefore - shownBefore);
  if (hiddenOthers < 0) return null;
  const last = view.upcoming[view.upcoming.length - 1];
  const certain = hiddenOthers === 0 || !last ? candidates : candidates.filter((entry) => compareUpcoming(entry, last) <= 0);
  const listed = Math.min(limit, total);
  if (certain.length < listed) return null;
  return { upcoming: certain.slice(0, listed), more: total - listed };
}
