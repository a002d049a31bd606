import type { Interval, Payment } from "../../protocol/wire";

// 2024-01-01 was a Monday: day n of a week is 2024-01-0n.
const A_MONDAY = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;

export type DayToProcessText = { key: "weekday"; weekday: string } | { key: "fortnightDay"; day: number } | { key: "lastDay" } | { key: "monthDay"; day: number };

/**
 * What a day to process means for an interval: weekly 1-7 are Monday to Sunday,
 * fortnightly 1-14 count from the first Monday, otherwise a day of the month with 31 the last.
 */
export function describeDayToProcess(interval: Interval | undefined, day: number, locale: string): DayToProcessText {
  if (interval === "weekly") {
    const weekday = new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(new Date(A_MONDAY + (day - 1) * DAY_MS));
    return { key: "weekday", weekday };
  }
  if (interval === "fortnightly") return { key: "fortnightDay", day };
  if (day === 31) return { key: "lastDay" };
  return { key: "monthDay", day };
}

/** The largest day to process an interval accepts. */
export function maxDayToProcess(interval: Interval | undefined): number {
  if (interval === "weekly") return 7;
  if (interval === "fortnightly") return 14;
  return 31;
}

export function localeOf(language: string): string {
  return language === "afr" ? "af-ZA" : "en-ZA";
}

/**
 * The date a payment raises its next debit, if it will: a paused schedule raises
 * nothing until it is resumed, so the date it had would mislead.
 */
export function nextDebitDate(payment: Pick<Payment, "status" | "nextActionDate">): string | undefined {
  return payment.status === "paused" ? undefined : payment.nextActionDate;
}

export type Representation = { cents: number; on?: string; movedFrom?: string };

/**
 * An unpaid 02 waiting to be presented again, as the payment shows it: its amount, and its day
 * (with the day it moved from, when the mandate already had a debit then) unless it waits for the
 * merchant to retry it, as a paused payment's does.
 */
export function representationOf(payment: Pick<Payment, "status" | "representationCents" | "representationDate" | "representationMovedFrom">): Representation | undefined {
  if (payment.representationCents === undefined) return undefined;
  if (payment.status === "paused" || !payment.representationDate) return { cents: payment.representationCents };
  return { cents: payment.representationCents, on: payment.representationDate, movedFrom: payment.representationMovedFrom };
}
