import { centsToRand, isCalendarDate, randToCents } from "../../components/listView";
import { PAGE_DEFAULT_METHODS, PAGE_METHODS } from "../../components/payPageMethods";
import type { AmountMode, ErrorCode, PageInterval, PayPage, PayPageInput, PaymentKind, PaymentMethod } from "../../protocol/wire";

export const PAGE_INTERVALS: readonly PageInterval[] = ["monthly", "annually"];
export const TITLE_MAX = 80;
export const DESCRIPTION_MAX = 500;
export const REFERENCE_MAX = 30;
export const DEFAULT_COLOUR = "#0f766e";

/** The form's fields, named as the server names them in its field errors. */
export const PAY_PAGE_FIELDS = [
  "title",
  "description",
  "amountCents",
  "minCents",
  "maxCents",
  "interval",
  "methods",
  "expiresOn",
  "maxUses",
  "reference",
  "successUrl",
  "colour",
  "logo",
] as const;
export type PayPageField = (typeof PAY_PAGE_FIELDS)[number];
export type PayPageErrors = Partial<Record<PayPageField, ErrorCode>>;

/** A pay page as the form holds it: amounts in rand and numbers as typed. */
export type PayPageDraft = {
  title: string;
  description: string;
  amountMode: AmountMode;
  amount: string;
  min: string;
  max: string;
  kind: PaymentKind;
  interval: PageInterval;
  methods: PaymentMethod[];
  expiresOn: string;
  maxUses: string;
  reference: string;
  successUrl: string;
  colour: string;
};

export function emptyPayPageDraft(): PayPageDraft {
  return {
    title: "",
    description: "",
    amountMode: "fixed",
    amount: "",
    min: "",
    max: "",
    kind: "once",
    interval: "monthly",
    methods: [...PAGE_METHODS.once],
    expiresOn: "",
    maxUses: "",
    reference: "",
    successUrl: "",
    colour: DEFAULT_COLOUR,
  };
}

/** An existing page in the form, to edit it. */
export function draftFromPage(page: PayPage): PayPageDraft {
  const rand = (cents: number | undefined) => (cents === undefined ? "" : centsToRand(cents));
  return {
    title: page.title,
    description: page.description,
    amountMode: page.amountMode,
    amount: rand(page.amountCents),
    min: rand(page.minCents),
    max: rand(page.maxCents),
    kind: page.kind,
    interval: page.interval ?? "monthly",
    methods: [...page.methods],
    expiresOn: page.expiresOn ?? "",
    maxUses: page.maxUses === undefined ? "" : String(page.maxUses),
    reference: page.reference,
    successUrl: page.successUrl ?? "",
    colour: page.colour,
  };
}

/** Switching between once-off and recurring keeps the methods both kinds allow. */
export function withKind(draft: PayPageDraft, kind: PaymentKind): PayPageDraft {
  if (kind === draft.kind) return draft;
  const kept = draft.methods.filter((method) => PAGE_METHODS[kind].includes(method));
  return { ...draft, kind, methods: kept.length > 0 ? kept : [...PAGE_DEFAULT_METHODS[kind]] };
}

/** Ticks or unticks a method, keeping the order the form lists them in. */
export function toggleMethod(draft: PayPageDraft, method: PaymentMethod, on: boolean): PayPageDraft {
  const chosen = new Set(draft.methods);
  if (on) chosen.add(method);
  else chosen.delete(method);
  return { ...draft, methods: PAGE_METHODS[draft.kind].filter((known) => chosen.has(known)) };
}

const COLOUR = /^#[0-9a-f]{6}$/i;

export function isColour(text: string): boolean {
  return COLOUR.test(text.trim());
}

function isHttpsUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "https:" && url.hostname.length > 0;
  } catch {
    return false;
  }
}

type Built = { input: PayPageInput; errors: PayPageErrors } | { input: null; errors: PayPageErrors };

/** A positive rand amount in cents, or the code of what is wrong with it. */
function positiveCents(text: string): number | ErrorCode {
  const cents = randToCents(text);
  if (cents === undefined) return "required";
  if (cents === "invalid" || cents <= 0) return "invalid_amount";
  return cents;
}

/**
 * The command input of a filled-in form, or what the form can already tell is wrong. These
 * checks mirror the server's so the merchant hears at once; the server decides, and its
 * field errors show beside the same fields. `today` is the merchant's date, `YYYY-MM-DD`.
 */
export function payPageInputFrom(draft: PayPageDraft, today: string): Built {
  const errors: PayPageErrors = {};
  const title = draft.title.trim();
  if (!title) errors.title = "required";
  else if ([...title].length > TITLE_MAX) errors.title = "too_long";
  const description = draft.description.trim();
  if ([...description].length > DESCRIPTION_MAX) errors.description = "too_long";

  const amounts: Pick<PayPageInput, "amountCents" | "minCents" | "maxCents"> = {};
  if (draft.amountMode === "fixed") {
    const amount = positiveCents(draft.amount);
    if (typeof amount === "number") amounts.amountCents = amount;
    else errors.amountCents = amount;
  } else {
    const min = positiveCents(draft.min);
    const max = positiveCents(draft.max);
    if (typeof min === "number") amounts.minCents = min;
    else errors.minCents = min;
    if (typeof max === "number") amounts.maxCents = max;
    else errors.maxCents = max;
    if (typeof min === "number" && typeof max === "number" && min > max) errors.minCents = "minimum_above_maximum";
  }

  const allowed = PAGE_METHODS[draft.kind];
  if (draft.methods.length === 0) errors.methods = "required";
  else if (draft.methods.some((method) => !allowed.includes(method))) errors.methods = "method_not_for_page";
  // A mandate's terms are fixed: DebiCheck needs the page's own amount.
  else if (draft.methods.includes("debicheck") && draft.amountMode !== "fixed") errors.methods = "method_not_for_page";
  const recurring = draft.kind === "recurring";
  if (recurring && !PAGE_INTERVALS.includes(draft.interval)) errors.interval = "interval_required";

  const expiresOn = draft.expiresOn.trim();
  if (expiresOn && !isCalendarDate(expiresOn)) errors.expiresOn = "invalid_date";
  else if (expiresOn && expiresOn < today) errors.expiresOn = "date_in_past";

  const usesText = draft.maxUses.trim();
  let maxUses: number | undefined;
  if (usesText) {
    if (/^\d{1,9}$/.test(usesText) && Number(usesText) >= 1) maxUses = Number(usesText);
    else errors.maxUses = "invalid_number";
  }

  const reference = draft.reference.trim();
  if (!reference) errors.reference = "required";
  else if ([...reference].length > REFERENCE_MAX) errors.reference = "too_long";

  const successUrl = draft.successUrl.trim();
  if (successUrl && !isHttpsUrl(successUrl)) errors.successUrl = "invalid_url";
  const colour = draft.colour.trim().toLowerCase();
  if (!isColour(colour)) errors.colour = "invalid_colour";

  if (Object.keys(errors).length > 0) return { input: null, errors };
  const input: PayPageInput = {
    title,
    description,
    amountMode: draft.amountMode,
    ...amounts,
    kind: draft.kind,
    ...(recurring ? { interval: draft.interval } : {}),
    methods: [...draft.methods],
    ...(expiresOn ? { expiresOn } : {}),
    ...(maxUses !== undefined ? { maxUses } : {}),
    reference,
    ...(successUrl ? { successUrl } : {}),
    colour,
  };
  return { input, errors };
}
