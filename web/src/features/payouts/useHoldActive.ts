import { useEffect, useState } from "react";

// setTimeout takes at most 2^31 - 1 ms; a longer wait is taken in steps.
const LONGEST_WAIT_MS = 2_147_483_647;

/** Whether a hold that ends at `until` (ms since the epoch) still runs: turns false by itself when it ends. */
export function useHoldActive(until: number | undefined): boolean {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined || until <= now) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.min(until - now, LONGEST_WAIT_MS));
    return () => window.clearTimeout(timer);
  }, [until, now]);
  return until !== undefined && until > now;
}
