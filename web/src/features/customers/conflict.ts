import type { Choices } from "../../components/ConflictPanel";
import type { CustomerInput, EditConflict } from "../../protocol/wire";
import { ID_TYPES } from "./fields";

/** The user's value of a field as text, to show beside the teammate's. */
export function valueOf(input: CustomerInput, field: string): string {
  const value = input[field as keyof CustomerInput];
  return typeof value === "string" ? value : "";
}

/** The user's input with the fields they chose the teammate's value for. */
export function mergedInput(mine: CustomerInput, conflict: EditConflict, choices: Choices): CustomerInput {
  const result: CustomerInput = { ...mine };
  for (const { field, theirs } of conflict.fields) {
    if (choices[field] !== "theirs") continue;
    if (field === "idType") result.idType = ID_TYPES.find((type) => type === theirs);
    else (result as Record<string, unknown>)[field] = theirs;
  }
  return result;
}
