import type { ClockStep } from "../../protocol/wire";

function parts(date: string): [number, number, number] {
  const [year, month, day] = date.split("-").map(Number);
  return [year, month, day];
}

function iso(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The business date a step of the test clock ends on: a day, seven days, or one calendar
 * month later; a month from the 31st ends on the next month's last day (Jan 31 -> Feb 28).
 */
export function clockTarget(today: string, step: ClockStep): string {
  const [year, month, day] = parts(today);
  if (step === "day") return iso(new Date(Date.UTC(year, month - 1, day + 1)));
  if (step === "week") return iso(new Date(Date.UTC(year, month - 1, day + 7)));
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return iso(new Date(Date.UTC(year, month, Math.min(day, lastDay))));
}

/** True once the clock stands on or past the target (`YYYY-MM-DD` compares as text). */
export function hasReached(current: string | undefined, target: string): boolean {
  return current !== undefined && current >= target;
}
