import type { ErrorCode, WireError } from "../protocol/wire";

export type PlacedError<F extends string> = { fields: Partial<Record<F, ErrorCode>>; general: ErrorCode | null };

/**
 * Puts a server error beside the fields it names (camelCase on the wire), or beside the
 * field a code is about when the server names none; anything else is for the whole form.
 */
export function placeError<F extends string>(
  error: WireError | null,
  known: readonly F[],
  byCode: Partial<Record<ErrorCode, F>> = {},
): PlacedError<F> {
  const placed: PlacedError<F> = { fields: {}, general: null };
  if (!error) return placed;
  for (const entry of error.fields ?? []) {
    const wanted = camelCase(entry.field);
    const field = known.find((name) => name === wanted);
    if (field && !placed.fields[field]) placed.fields[field] = entry.code;
  }
  if (Object.keys(placed.fields).length > 0) return placed;
  const field = byCode[error.code];
  if (field) placed.fields[field] = error.code;
  else placed.general = error.code;
  return placed;
}

// The wire names fields in camelCase; accept snake_case too.
function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, char: string) => char.toUpperCase());
}

/** The placed error less what stood beside fields the user has changed since: it was about the old value. */
export function withoutEdited<F extends string>(placed: PlacedError<F>, edited: readonly F[]): PlacedError<F> {
  if (edited.length === 0) return placed;
  const fields = Object.fromEntries(Object.entries(placed.fields).filter(([field]) => !edited.includes(field as F)));
  return { fields: fields as Partial<Record<F, ErrorCode>>, general: placed.general };
}

/** The form's own findings beside the server's answer; where both speak of one field, the form's. */
export function withFound<F extends string>(placed: PlacedError<F>, found: Partial<Record<F, ErrorCode>>): PlacedError<F> {
  if (Object.keys(found).length === 0) return placed;
  return { fields: { ...placed.fields, ...found }, general: placed.general };
}
