import type { EditConflict } from "../protocol/wire";
import type { Choices } from "./ConflictPanel";

/** A field's value as the server names it in a conflict: text as it is, blank for none, anything else as JSON. */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A teammate's value back from its text, shaped like the user's own value of the field. */
function valueFrom(mine: unknown, theirs: string): unknown {
  if (typeof mine === "string") return theirs;
  if (theirs === "") return undefined;
  try {
    return JSON.parse(theirs);
  } catch {
    // Optional text (a date, an interval) the user left blank.
    return theirs;
  }
}

/** The user's input with the fields they chose the teammate's value for. */
export function mergedWithChoices<T extends object>(mine: T, conflict: EditConflict, choices: Choices): T {
  const result: Record<string, unknown> = { ...(mine as Record<string, unknown>) };
  for (const { field, theirs } of conflict.fields) {
    if (choices[field] !== "theirs") continue;
    result[field] = valueFrom(result[field], theirs);
  }
  return result as T;
}

/**
 * A refused save split by who changed what. A field only the teammate changed takes their value
 * (the user never touched it); a field only the user changed keeps theirs; a field both changed
 * to different values is a clash, for the user to choose. `start` is what the form was filled
 * from, so "the user changed it" means the form's value differs from it.
 */
export function splitConflict<T extends object>(mine: T, start: object, conflict: EditConflict): { merged: T; clashes: EditConflict } {
  const merged: Record<string, unknown> = { ...(mine as Record<string, unknown>) };
  const before = start as Record<string, unknown>;
  // The server names the fields changed since the form's version, or (when it no longer knows
  // that version) every field that differs from what was sent: a field still at the form's
  // starting value on their side is the user's own edit, not theirs.
  const clashes = conflict.fields.filter(({ field, theirs }) => {
    const touched = textOf(merged[field]) !== textOf(before[field]);
    const theyChanged = theirs !== textOf(before[field]);
    if (!touched) merged[field] = valueFrom(merged[field], theirs);
    return touched && theyChanged && textOf(merged[field]) !== theirs;
  });
  return { merged: merged as T, clashes: { version: conflict.version, fields: clashes } };
}

/** The fields whose values differ between two versions of a record, by wire name. */
export function changedFields<T extends object>(from: T, to: T, fields: readonly string[]): string[] {
  const a = from as Record<string, unknown>;
  const b = to as Record<string, unknown>;
  return fields.filter((field) => textOf(a[field]) !== textOf(b[field]));
}
