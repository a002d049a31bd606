import type { BusinessInfo } from "../../protocol/wire";

/** The editable fields; `version` only travels along, as the base of a save. */
export type BusinessField = Exclude<keyof BusinessInfo, "version">;

export const STATEMENT_NAME_MAX = 10;

/** The longest each field may be, as the server's rule for it says, so a message can name it. */
export const FIELD_MAX: Partial<Record<BusinessField, number>> = {
  legalName: 128,
  tradingName: 128,
  industry: 64,
  physicalAddress: 256,
  contactPerson: 64,
  statementName: STATEMENT_NAME_MAX,
};

/** The fields held to the rule for names of people and businesses. */
export const NAME_FIELDS: BusinessField[] = ["legalName", "tradingName", "contactPerson"];

export const SECTIONS: { section: "company" | "contact" | "statements"; fields: BusinessField[] }[] = [
  { section: "company", fields: ["legalName", "tradingName", "registrationNumber", "vatNumber", "industry"] },
  { section: "contact", fields: ["contactPerson", "supportEmail", "supportPhone", "physicalAddress"] },
  { section: "statements", fields: ["statementName"] },
];

export const BUSINESS_FIELDS: BusinessField[] = SECTIONS.flatMap((entry) => entry.fields);

export function sameInfo(a: BusinessInfo, b: BusinessInfo): boolean {
  return BUSINESS_FIELDS.every((field) => a[field] === b[field]);
}

export function trimmed(info: BusinessInfo): BusinessInfo {
  return { ...info, ...Object.fromEntries(BUSINESS_FIELDS.map((field) => [field, info[field].trim()])) };
}

/**
 * The form against the live record: `baseline` is what the form was filled from, `draft` what
 * the user typed, `incoming` a newer record from a teammate held back while the user edits,
 * and `seen` the last record this form looked at.
 */
export type BusinessDraft = { baseline: BusinessInfo; draft: BusinessInfo; incoming: BusinessInfo | null; seen: BusinessInfo };

export function isDirty(form: BusinessDraft): boolean {
  return !sameInfo(form.draft, form.baseline);
}

export function startDraft(info: BusinessInfo): BusinessDraft {
  return { baseline: info, draft: info, incoming: null, seen: info };
}

/**
 * A newer record arrived (a delta or a refetch). It replaces an untouched form, and one
 * that is being saved; a form the user is editing keeps the user's values and holds the
 * record back until they choose to reload.
 */
export function receive(form: BusinessDraft | null, info: BusinessInfo, saving: boolean): BusinessDraft {
  if (!form || saving || !isDirty(form)) return startDraft(info);
  if (sameInfo(form.draft, info)) return { baseline: info, draft: form.draft, incoming: null, seen: info };
  if (sameInfo(form.baseline, info)) return { ...form, seen: info };
  return { ...form, incoming: info, seen: info };
}

/** After our own save: what was sent is now the baseline, so the delta that follows replaces it quietly. */
export function saved(form: BusinessDraft, sent: BusinessInfo): BusinessDraft {
  // Our own save's delta may have come before its reply: its version is then the one to edit from next.
  const version = sameInfo(form.seen, sent) ? Math.max(form.seen.version, sent.version) : sent.version;
  const baseline = { ...sent, version };
  return { ...form, baseline, draft: baseline };
}

export function edit(form: BusinessDraft, field: BusinessField, value: string): BusinessDraft {
  return { ...form, draft: { ...form.draft, [field]: value } };
}

/** Throws away the user's edits for the newest record we have. */
export function reload(form: BusinessDraft): BusinessDraft {
  return startDraft(form.incoming ?? form.seen);
}
