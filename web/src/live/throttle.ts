/** How long to wait so that the next run starts at least `gapMs` after the last one began. */
export function throttleDelay(lastStartedAt: number | undefined, now: number, gapMs: number): number {
  if (lastStartedAt === undefined) return 0;
  return Math.max(0, lastStartedAt + gapMs - now);
}
