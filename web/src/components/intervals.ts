import type { Interval } from "../protocol/wire";

/** Collection intervals in the order forms offer them, shortest first. */
export const INTERVALS: readonly Interval[] = ["weekly", "fortnightly", "monthly", "quarterly", "biannually", "annually"];
