import type { Dashboard } from "../../protocol/wire";

export type RatioLevel = "ok" | "near" | "over";

// From this share of a threshold on, the figure is flagged before it is crossed.
const NEAR_SHARE = 0.8;

/** Where a ratio stands against its regulator threshold (both in basis points). */
export function ratioLevel(ratioBp: number, thresholdBp: number, settled: number): RatioLevel {
  // With nothing settled this month there is no ratio to judge.
  if (settled === 0 || thresholdBp <= 0) return "ok";
  if (ratioBp >= thresholdBp) return "over";
  if (ratioBp >= thresholdBp * NEAR_SHARE) return "near";
  return "ok";
}

export type ThresholdWarning = { kind: "unpaid" | "dispute"; level: Exclude<RatioLevel, "ok">; ratioBp: number; thresholdBp: number };

/** The warnings the home screen shows, worst first. */
export function thresholdWarnings(dashboard: Dashboard): ThresholdWarning[] {
  const warnings: ThresholdWarning[] = [];
  const settled = dashboard.settledThisMonth;
  const unpaid = ratioLevel(dashboard.unpaidRatioBp, dashboard.unpaidThresholdBp, settled);
  const dispute = ratioLevel(dashboard.disputeRatioBp, dashboard.disputeThresholdBp, settled);
  if (unpaid !== "ok") warnings.push({ kind: "unpaid", level: unpaid, ratioBp: dashboard.unpaidRatioBp, thresholdBp: dashboard.unpaidThresholdBp });
  if (dispute !== "ok") warnings.push({ kind: "dispute", level: dispute, ratioBp: dashboard.disputeRatioBp, thresholdBp: dashboard.disputeThresholdBp });
  return warnings.sort((a, b) => (a.level === b.level ? 0 : a.level === "over" ? -1 : 1));
}

/** How far a ratio has used up its threshold, 0-1, for the bar beside it. */
export function thresholdShare(ratioBp: number, thresholdBp: number): number {
  if (thresholdBp <= 0) return 0;
  return Math.min(1, Math.max(0, ratioBp / thresholdBp));
}
