import type { Resume } from "../protocol/wire";

export type DeltaVerdict = "apply" | "stale" | "gap";

// Deltas must arrive one seq at a time; anything older was already applied
// (e.g. replayed after a resume), anything newer means one went missing.
export function judgeDelta(position: Resume | null, seq: number): DeltaVerdict {
  if (position === null) return "gap";
  if (seq <= position.seq) return "stale";
  return seq === position.seq + 1 ? "apply" : "gap";
}

// After a Welcome: can we carry on from where we were, or must we refetch what is shown?
export function needsResync(previous: Resume | null, welcome: Resume): boolean {
  if (previous === null) return false;
  return previous.epoch !== welcome.epoch || previous.seq !== welcome.seq;
}

export function nextBackoff(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 10_000);
}
