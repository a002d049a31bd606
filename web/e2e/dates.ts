import { inject } from "vitest";

/**
 * A date `days` after the e2e server's business date, as YYYY-MM-DD. The server is pinned to
 * that date for the whole run (`global-setup.ts`), so a date made here means the same day to it
 * whatever the wall clock says, and `BUSINESS_DATE=YYYY-MM-DD` runs the suite as if it were then.
 */
export function inDays(days: number): string {
  const today = new Date(`${inject("businessDate")}T00:00:00Z`);
  return new Date(today.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}
