import {
  bankAccountInputFrom,
  blankBankAccountFields,
  changedBankAccountFields,
  emptyBankAccountDraft,
  type BankAccountDraft,
} from "../../components/bankAccountFields";
import { randToCents } from "../../components/listView";
import type {
  AdjustmentCategory,
  AdjustmentType,
  ApprovalWindow,
  ClientType,
  Customer,
  ErrorCode,
  Industry,
  Interval,
  MandateInput,
  PaymentInput,
  PaymentKind,
  PaymentMethod,
  PaymentMethodSettings,
} from "../../protocol/wire";

// Methods that collect under a mandate: the ones this form can set up.
export const MANDATE_METHODS: readonly PaymentMethod[] = ["debicheck", "registered_mandate", "eft_debit_order"];
export const CLIENT_TYPES: readonly ClientType[] = ["resident_individual", "non_resident_individual", "domestic_company"];
export const INDUSTRIES: readonly Industry[] = [
  "account_repayment",
  "insurance_premium",
  "pension_fund_contribution",
  "medical_aid_contribution",
  "unit_trust_purchase",
  "charitable_or_religious_contribution",
  "hire_purchase_repayment",
  "bond_repayment",
  "loan_repayment",
  "rental_or_lease",
  "subscription",
  "service_fee",
];
export const ADJUSTMENT_CATEGORIES: readonly AdjustmentCategory[] = ["never", "quarterly", "biannually", "annually", "repo"];
export const ADJUSTMENT_TYPES: readonly AdjustmentType[] = ["amount", "rate"];
export const APPROVAL_WINDOWS: readonly ApprovalWindow[] = ["tt1_real_time", "tt1_delayed", "tt2_batch"];
export { INTERVALS } from "../../components/intervals";

/** The new mandate's fields as the form holds them: amounts in rand as typed. */
export type MandateDraft = {
  method: PaymentMethod;
  bankChoice: "existing" | "new";
  bankAccountId: string;
  bankAccount: BankAccountDraft;
  clientType: ClientType;
  industry: Industry;
  contractReference: string;
  maximumCollection: string;
  allowTracking: boolean;
  trackingDays: string;
  allowDateAdjustment: boolean;
  variableAmount: boolean;
  adjustmentCategory: AdjustmentCategory;
  adjustmentType: AdjustmentType | "";
  adjustmentRate: string;
  adjustmentAmount: string;
  approvalWindow: ApprovalWindow;
  abbreviatedName: string;
};

export type PaymentDraft = {
  kind: PaymentKind;
  customerId: string;
  mandateChoice: "existing" | "new";
  mandateId: string;
  mandate: MandateDraft;
  amount: string;
  dateToProcess: string;
  transactionReference: string;
  startDate: string;
  endDate: string;
  interval: Interval;
  dayToProcess: string;
  firstCollection: string;
  startRunning: boolean;
};

/** The form's fields, named as the server names them in its field errors. */
export const PAYMENT_FORM_FIELDS = [
  "customerId",
  "mandate",
  "mandate.method",
  "mandate.bankAccount",
  "mandate.bankAccount.bank",
  "mandate.bankAccount.branchCode",
  "mandate.bankAccount.accountType",
  "mandate.bankAccount.holderName",
  "mandate.bankAccount.accountNumber",
  "mandate.clientType",
  "mandate.industry",
  "mandate.contractReference",
  "mandate.maximumCollectionCents",
  "mandate.allowTracking",
  "mandate.trackingDays",
  "mandate.adjustmentType",
  "mandate.adjustmentRate",
  "mandate.adjustmentAmountCents",
  "mandate.approvalWindow",
  "mandate.abbreviatedName",
  "amountCents",
  "dateToProcess",
  "transactionReference",
  "startDate",
  "endDate",
  "interval",
  "dayToProcess",
  "firstCollectionCents",
  "customer.idNumber",
  "customer.cellphone",
] as const;
export type PaymentFormField = (typeof PAYMENT_FORM_FIELDS)[number];
export type FormErrors = Partial<Record<PaymentFormField, ErrorCode>>;

// The field whose error a change of each part of the draft answers.
const PAYMENT_FIELD_OF: Partial<Record<keyof PaymentDraft, PaymentFormField>> = {
  customerId: "customerId",
  mandateChoice: "mandate",
  mandateId: "mandate",
  amount: "amountCents",
  dateToProcess: "dateToProcess",
  transactionReference: "transactionReference",
  startDate: "startDate",
  endDate: "endDate",
  interval: "interval",
  dayToProcess: "dayToProcess",
  firstCollection: "firstCollectionCents",
};
const MANDATE_FIELD_OF: Partial<Record<keyof MandateDraft, PaymentFormField>> = {
  method: "mandate.method",
  bankChoice: "mandate.bankAccount",
  bankAccountId: "mandate.bankAccount",
  clientType: "mandate.clientType",
  industry: "mandate.industry",
  contractReference: "mandate.contractReference",
  maximumCollection: "mandate.maximumCollectionCents",
  allowTracking: "mandate.allowTracking",
  trackingDays: "mandate.trackingDays",
  adjustmentType: "mandate.adjustmentType",
  adjustmentRate: "mandate.adjustmentRate",
  adjustmentAmount: "mandate.adjustmentAmountCents",
  approvalWindow: "mandate.approvalWindow",
  abbreviatedName: "mandate.abbreviatedName",
};

/** The fields whose values differ between two drafts: what was said of their old values no longer stands. */
export function changedPaymentFields(before: PaymentDraft, after: PaymentDraft): PaymentFormField[] {
  const changed = new Set<PaymentFormField>();
  for (const [key, field] of Object.entries(PAYMENT_FIELD_OF) as [keyof PaymentDraft, PaymentFormField][]) {
    if (before[key] !== after[key]) changed.add(field);
  }
  for (const [key, field] of Object.entries(MANDATE_FIELD_OF) as [keyof MandateDraft, PaymentFormField][]) {
    if (before.mandate[key] !== after.mandate[key]) changed.add(field);
  }
  for (const field of changedBankAccountFields(before.mandate.bankAccount, after.mandate.bankAccount)) {
    changed.add(`mandate.bankAccount.${field}`);
  }
  // Only DebiCheck asks the payer's ID number and cellphone: another method answers their lack.
  if (before.mandate.method !== after.mandate.method) {
    changed.add("customer.idNumber");
    changed.add("customer.cellphone");
  }
  return [...changed];
}

/** The methods a merchant may set a new mandate up with: enabled ones that use a mandate. */
export function offeredMethods(settings: PaymentMethodSettings | undefined): PaymentMethod[] {
  return MANDATE_METHODS.filter((method) => settings?.enabled.includes(method));
}

/** A new mandate starts from the merchant's DebiCheck defaults. */
export function emptyMandateDraft(settings: PaymentMethodSettings | undefined, holderName = ""): MandateDraft {
  return {
    method: offeredMethods(settings)[0] ?? "debicheck",
    bankChoice: "new",
    bankAccountId: "",
    bankAccount: emptyBankAccountDraft(holderName),
    clientType: "resident_individual",
    industry: "subscription",
    contractReference: "",
    maximumCollection: "",
    allowTracking: settings?.debicheckAllowTracking ?? false,
    trackingDays: settings ? String(settings.debicheckTrackingDays) : "",
    allowDateAdjustment: settings?.debicheckAllowDateAdjustment ?? false,
    variableAmount: false,
    adjustmentCategory: "never",
    adjustmentType: "",
    adjustmentRate: "",
    adjustmentAmount: "",
    approvalWindow: settings?.debicheckApprovalWindow ?? "tt1_delayed",
    abbreviatedName: settings?.debicheckAbbreviatedName ?? "",
  };
}

export function emptyPaymentDraft(kind: PaymentKind, settings: PaymentMethodSettings | undefined): PaymentDraft {
  return {
    kind,
    customerId: "",
    mandateChoice: "new",
    mandateId: "",
    mandate: emptyMandateDraft(settings),
    amount: "",
    dateToProcess: "",
    transactionReference: "",
    startDate: "",
    endDate: "",
    interval: "monthly",
    dayToProcess: "",
    firstCollection: "",
    startRunning: true,
  };
}

/** Whole numbers as typed; undefined when empty, NaN when not a whole number. */
function wholeNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return /^\d{1,3}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

const blank = (text: string) => text.trim() === "";

/**
 * What the form finds itself. `errors`: every mistake it can see (fields the server requires left
 * blank, numbers that do not read as numbers), shown with the server's answer. `heldBack`: the
 * form is not sent, as the command could not say what the user means: no customer chosen (the
 * form shows nothing else yet), or a number it cannot read in a field the server takes as
 * optional, where leaving it out could make the payment without it. Anything else goes, blanks
 * and all: the server names what is missing together with what only it can tell.
 */
type Findings = { errors: FormErrors; heldBack: boolean };

/** An amount field in cents. One that does not read as rand goes left out, which the server refuses only for a `required` field. */
function cents(text: string, field: PaymentFormField, required: boolean, found: Findings): number | undefined {
  const value = randToCents(text);
  if (value !== "invalid") return value;
  found.errors[field] = "invalid_amount";
  if (!required) found.heldBack = true;
  return undefined;
}

/** What a new DebiCheck mandate needs of the payer: the bank finds them by ID number and asks on their phone. */
export type Payer = Pick<Customer, "idNumber" | "cellphone">;

function mandateInputFrom(draft: MandateDraft, kind: PaymentKind, payer: Payer | undefined, found: Findings): MandateInput | null {
  const debicheck = draft.method === "debicheck";
  const mandated = debicheck || draft.method === "registered_mandate";
  const recurring = kind === "recurring";
  let bankAccount: MandateInput["bankAccount"] | null;
  if (draft.bankChoice === "existing") {
    // The account picker always holds one; this is for safety only.
    bankAccount = draft.bankAccountId ? { t: "Existing", bankAccountId: draft.bankAccountId } : null;
    if (!bankAccount) found.errors["mandate.bankAccount"] = "required";
  } else {
    // An account with no bank chosen goes without one: the server names it missing.
    const account = bankAccountInputFrom(draft.bankAccount);
    bankAccount = account && { t: "New", input: account };
    if (!account) found.errors["mandate.bankAccount.accountType"] = "required";
    for (const field of blankBankAccountFields(draft.bankAccount)) found.errors[`mandate.bankAccount.${field}` as const] = "required";
  }
  if (!bankAccount) found.heldBack = true;
  // The server's required fields of a mandate (mandates.rs, validate_mandate), by presence only.
  if (debicheck && payer && blank(payer.idNumber)) found.errors["customer.idNumber"] = "required";
  if (debicheck && payer && blank(payer.cellphone)) found.errors["customer.cellphone"] = "required";
  if (mandated && blank(draft.contractReference)) found.errors["mandate.contractReference"] = "required";
  const maximumRequired = mandated && recurring;
  if (maximumRequired && blank(draft.maximumCollection)) found.errors["mandate.maximumCollectionCents"] = "required";
  // Tracking is DebiCheck and Registered Mandate only; EFT debit orders have none.
  const tracking = draft.method !== "eft_debit_order" && draft.allowTracking;
  // Days that are not a number go left out, which the server refuses while tracking is on.
  const trackingDays = tracking ? wholeNumber(draft.trackingDays) : undefined;
  if (tracking && trackingDays === undefined) found.errors["mandate.trackingDays"] = "required";
  if (trackingDays !== undefined && Number.isNaN(trackingDays)) found.errors["mandate.trackingDays"] = "tracking_days_out_of_range";
  // Adjustments belong to recurring schedules only.
  const adjusting = recurring && draft.adjustmentCategory !== "never";
  const adjustmentType = adjusting && draft.adjustmentType ? draft.adjustmentType : undefined;
  if (adjusting && !adjustmentType) found.errors["mandate.adjustmentType"] = "adjustment_type_required";
  if (adjustmentType === "rate" && blank(draft.adjustmentRate)) found.errors["mandate.adjustmentRate"] = "adjustment_value_required";
  if (adjustmentType === "amount" && blank(draft.adjustmentAmount)) found.errors["mandate.adjustmentAmountCents"] = "adjustment_value_required";
  const maximumCollectionCents = cents(draft.maximumCollection, "mandate.maximumCollectionCents", maximumRequired, found);
  // The server requires the amount of an amount adjustment.
  const adjustmentAmountCents = adjustmentType === "amount" ? cents(draft.adjustmentAmount, "mandate.adjustmentAmountCents", true, found) : undefined;
  if (!bankAccount) return null;
  return {
    method: draft.method,
    bankAccount,
    clientType: draft.clientType,
    industry: draft.industry,
    contractReference: draft.contractReference.trim(),
    maximumCollectionCents,
    allowTracking: tracking,
    trackingDays: trackingDays !== undefined && !Number.isNaN(trackingDays) ? trackingDays : undefined,
    allowDateAdjustment: recurring && draft.allowDateAdjustment,
    variableAmount: recurring && draft.variableAmount,
    adjustmentCategory: adjusting ? draft.adjustmentCategory : "never",
    adjustmentType,
    adjustmentRate: adjustmentType === "rate" ? draft.adjustmentRate.trim() : "",
    adjustmentAmountCents,
    approvalWindow: debicheck ? draft.approvalWindow : undefined,
    abbreviatedName: draft.abbreviatedName.trim(),
  };
}

/** What the form knows beside its own fields: the chosen mandate's method, and the payer. */
export type PaymentFormContext = { existingMethod?: PaymentMethod; payer?: Payer };

/**
 * The command input of the form, and every mistake the form can see itself, all at once.
 * `input` is null only when the form is held back (see `Findings`); otherwise it is sent even
 * with blanks and choices left unmade, so that the server's answer adds, in the same round,
 * what only the server can tell (a date in the past, an account number it refuses).
 */
export function paymentInputFrom(draft: PaymentDraft, context: PaymentFormContext = {}): { input: PaymentInput | null; errors: FormErrors } {
  const found: Findings = { errors: {}, heldBack: false };
  if (!draft.customerId) {
    found.errors.customerId = "required";
    found.heldBack = true;
  }
  const amountCents = cents(draft.amount, "amountCents", true, found);
  if (amountCents === undefined && !found.errors.amountCents) found.errors.amountCents = "required";
  let mandate: PaymentInput["mandate"];
  if (draft.mandateChoice === "existing") {
    // None chosen goes without one: the server names it missing.
    if (draft.mandateId) mandate = { t: "Existing", mandateId: draft.mandateId };
    else found.errors.mandate = "required";
  } else {
    const input = mandateInputFrom(draft.mandate, draft.kind, context.payer, found);
    if (input) mandate = { t: "New", input };
  }
  const once = draft.kind === "once";
  // The server's required fields of a payment (payments.rs, validate_payment), by presence only.
  if (once && blank(draft.dateToProcess)) found.errors.dateToProcess = "required";
  if (!once && blank(draft.startDate)) found.errors.startDate = "required";
  // A day that is not a number goes left out, which the server refuses for a schedule.
  const day = once ? undefined : wholeNumber(draft.dayToProcess);
  if (!once && day === undefined) found.errors.dayToProcess = "required";
  if (day !== undefined && Number.isNaN(day)) found.errors.dayToProcess = "day_to_process_out_of_range";
  const method = draft.mandateChoice === "new" ? draft.mandate.method : context.existingMethod;
  const input: PaymentInput = {
    customerId: draft.customerId,
    mandate,
    kind: draft.kind,
    amountCents,
    dateToProcess: once ? draft.dateToProcess || undefined : undefined,
    transactionReference: once ? draft.transactionReference.trim() : "",
    startDate: once ? undefined : draft.startDate || undefined,
    endDate: once ? undefined : draft.endDate || undefined,
    interval: once ? undefined : draft.interval,
    dayToProcess: day !== undefined && !Number.isNaN(day) ? day : undefined,
    firstCollectionCents: once ? undefined : cents(draft.firstCollection, "firstCollectionCents", false, found),
    // Only an EFT debit order may wait for the merchant to start it.
    startRunning: method === "eft_debit_order" ? draft.startRunning : true,
  };
  if (found.heldBack) return { input: null, errors: found.errors };
  // Keys with no value stay off the wire.
  for (const key of Object.keys(input) as (keyof PaymentInput)[]) if (input[key] === undefined) delete input[key];
  if (input.mandate?.t === "New") {
    const nested = input.mandate.input;
    for (const key of Object.keys(nested) as (keyof MandateInput)[]) if (nested[key] === undefined) delete nested[key];
  }
  return { input, errors: found.errors };
}
