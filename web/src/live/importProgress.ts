import type { Import } from "../protocol/wire";

/** Rows the commit has dealt with so far: written, failed, or skipped as repeats of a payment. */
export function doneRows(entry: Pick<Import, "committed" | "failed" | "skipped">): number {
  return entry.committed + entry.failed + entry.skipped;
}

/** Progress of the commit from 0 to 1; an import with nothing valid to write is done. */
export function commitProgress(entry: Pick<Import, "committed" | "failed" | "skipped" | "valid" | "status">): number {
  if (entry.status === "completed" || entry.valid === 0) return 1;
  return Math.min(1, doneRows(entry) / entry.valid);
}

/**
 * An import's progress only moves forward. A reply to a query sent before the latest delta
 * can still arrive after it: the older snapshot must not pull the bar back.
 */
export function laterImport(known: Import | undefined, incoming: Import): Import {
  if (!known || known.id !== incoming.id) return incoming;
  if (known.status === "completed" && incoming.status !== "completed") return known;
  if (incoming.status === known.status && doneRows(incoming) < doneRows(known)) return known;
  return incoming;
}
