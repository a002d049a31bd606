import { bankName } from "../../components/banks";
import { formatBusinessDate, formatDateTime, formatMoney } from "../../components/format";
import { MATRIX_SECTIONS } from "../../live/permissions";
import type { HistoryEntry } from "../../protocol/wire";
import { isRecordKind, type RecordKind } from "./historyView";
import { NESTED_FIELDS, RECORD_FIELDS, type Shown } from "./recordFields";

/** The interface language's text at a locale key, or undefined when it has none there. */
export type Translate = (key: string) => string | undefined;

export type ValueContext = { translate: Translate; language: string };

// Field names and enum codes are plain words (`lastUsedAt`, `sent_to_bank`); anything else is
// shown as sent rather than looked up, as a dot would walk into another part of the locale files.
const CODE = /^\w+$/;

function shownOf(recordKind: string, field: string): Shown | undefined {
  if (!isRecordKind(recordKind)) return undefined;
  const fields = RECORD_FIELDS[recordKind];
  return Object.hasOwn(fields, field) ? fields[field] : undefined;
}

/**
 * A field as a merchant reads it: the record's own wording where a name means something else
 * there (a mandate's `industry` is the type of payment), else the field's shared label, else its
 * raw name: an entry recorded before a field was renamed must still show.
 */
export function fieldLabel(recordKind: string, field: string, translate: Translate): string {
  return translatedFieldLabel(recordKind, field, translate) ?? field;
}

/** The field's label in the interface language, if it has one. */
export function translatedFieldLabel(recordKind: string, field: string, translate: Translate): string | undefined {
  if (!CODE.test(field)) return undefined;
  const own = isRecordKind(recordKind) ? translate(`accountHistory.recordFieldNames.${recordKind}.${field}`) : undefined;
  return own ?? translate(`accountHistory.fieldNames.${field}`);
}

/** Where a field comes in its record (the protocol's order); fields this build does not know come last. */
export function fieldOrder(recordKind: string, field: string): number {
  if (!isRecordKind(recordKind)) return Number.MAX_SAFE_INTEGER;
  const index = Object.keys(RECORD_FIELDS[recordKind]).indexOf(field);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}

/** The fields an entry names as changed, labelled, for the list and its CSV. */
export function changedFieldsLabel(entry: HistoryEntry, translate: Translate): string {
  return entry.fields.map((field) => fieldLabel(entry.recordKind, field, translate)).join(", ");
}

function yesNo(value: boolean, translate: Translate): string {
  return translate(`accountHistory.values.${value ? "yes" : "no"}`) ?? String(value);
}

function word(prefix: string, value: unknown, translate: Translate): string {
  if (typeof value !== "string") return JSON.stringify(value);
  return (CODE.test(value) ? translate(`${prefix}.${value}`) : undefined) ?? value;
}

// A value no rule covers: strings without their quotes, booleans in words, the rest as JSON.
function plain(value: unknown, json: string, translate: Translate): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return yesNo(value, translate);
  return json;
}

/** What a role or token grants, as the team screen says it: the sections it changes, then those it only reads. */
function permissionsText(value: unknown, json: string, translate: Translate): string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return json;
  const grants = value as Record<string, unknown>;
  const names = (access: string) =>
    MATRIX_SECTIONS.filter((section) => grants[section] === access)
      .map((section) => translate(`developers.tokens.sections.${section}`) ?? section)
      .join(", ");
  const sentence = (key: string, sections: string) => (translate(`teams.rolesList.${key}`) ?? "{{sections}}").replace("{{sections}}", sections);
  const [write, read] = [names("write"), names("read")];
  const parts = [write ? sentence("changes", write) : "", read ? sentence("reads", read) : ""].filter(Boolean);
  return parts.length > 0 ? parts.join(" ") : (translate("teams.rolesList.nothing") ?? json);
}

const BUSINESS_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * How a field inside structured data reads (a debit's steps, an order's items, a payout
 * schedule): as the record's own field of that name reads, else as the first record kind's
 * field of that name, else by its name and value alone (cents, times, business dates).
 */
function nestedShown(recordKind: string, field: string, value: unknown): Shown {
  const nested = NESTED_FIELDS[recordKind as RecordKind]?.[field];
  if (nested !== undefined) return nested;
  const own = shownOf(recordKind, field);
  if (own !== undefined && own !== "data") return own;
  for (const fields of Object.values(RECORD_FIELDS) as Record<string, Shown>[]) {
    const shown = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (shown !== undefined && shown !== "data" && shown !== "text") return shown;
  }
  if (field.endsWith("Cents")) return "money";
  if (field.endsWith("At")) return "time";
  if (typeof value === "string" && BUSINESS_DATE.test(value)) return "date";
  return "text";
}

/**
 * Structured data in words: each field of an object labelled and read as its record's field
 * of that name would be ("Status: Paid, Date: 4 Mar 2026"), items of a list one after another.
 * The server writes the history's file by the same rule (`history_values::structured`).
 */
function structuredText(recordKind: string, value: unknown, context: ValueContext): string {
  if (Array.isArray(value)) return value.length === 0 ? "—" : value.map((item) => structuredText(recordKind, item, context)).join("; ");
  if (value === null || typeof value !== "object") return value === null ? "—" : plain(value, JSON.stringify(value), context.translate);
  return Object.entries(value as Record<string, unknown>)
    .filter(([, inner]) => inner !== null && inner !== undefined)
    .map(([field, inner]) => {
      const label = translatedFieldLabel(recordKind, field, context.translate) ?? field;
      const text =
        inner !== null && typeof inner === "object" ? structuredText(recordKind, inner, context) : render(nestedShown(recordKind, field, inner), inner, JSON.stringify(inner), context, recordKind);
      return `${label}: ${text}`;
    })
    .join(", ");
}

function render(shown: Shown, value: unknown, json: string, context: ValueContext, recordKind: string): string {
  const { translate, language } = context;
  switch (shown) {
    case "time":
      return typeof value === "number" ? formatDateTime(value, language) : plain(value, json, translate);
    case "date":
      return typeof value === "string" ? formatBusinessDate(value, language) : plain(value, json, translate);
    case "money":
      return Number.isSafeInteger(value) ? formatMoney(value as number, language) : plain(value, json, translate);
    case "bank":
      return typeof value === "string" ? bankName(value) : plain(value, json, translate);
    case "permissions":
      return permissionsText(value, json, translate);
    case "data":
      return structuredText(recordKind, value, context);
    case "list":
      if (!Array.isArray(value)) return plain(value, json, translate);
      return value.length === 0 ? "—" : value.map((item) => (typeof item === "string" ? item : JSON.stringify(item))).join(", ");
    case "text":
    case "yesNo":
      return plain(value, json, translate);
  }
  if (shown.endsWith("[]")) {
    if (!Array.isArray(value)) return plain(value, json, translate);
    return value.length === 0 ? "—" : value.map((item) => word(shown.slice(0, -2), item, translate)).join(", ");
  }
  return word(shown, value, translate);
}

/**
 * A field's value (JSON text, as the server sends it) as a merchant reads it: nothing as a dash,
 * times and business dates in the interface language, cents as rand, yes or no, and enum codes
 * in the words the app uses for them elsewhere, structured data field by field. Free text is left
 * as it is.
 */
export function fieldValueText(recordKind: string, field: string, json: string | undefined, context: ValueContext): string {
  if (json === undefined) return "—";
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return json;
  }
  if (value === null) return "—";
  // A field this build does not know: the records' times end in `At` and are milliseconds.
  const shown = shownOf(recordKind, field) ?? (field.endsWith("At") ? "time" : "text");
  return render(shown, value, json, context, recordKind);
}
