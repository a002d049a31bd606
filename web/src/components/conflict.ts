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
