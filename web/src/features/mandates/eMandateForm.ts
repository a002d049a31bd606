import { randToCents } from "../../components/listView";
import type { EMandateChangeable, EMandateRequestInput, ErrorCode, Interval, Language, PaymentMethod } from "../../protocol/wire";

// The methods a payer can sign through a link (the server refuses any other).
export const E_MANDATE_METHODS: readonly PaymentMethod[] = ["debicheck", "registered_mandate"];
export const CHANGEABLE: readonly EMandateChangeable[] = ["amount", "start_date"];

/** The form's fields, named as the server names them in its field errors. */
export const E_MANDATE_FIELDS = ["customerId", "name", "email", "cellphone", "method", "amountCents", "maxCents", "interval", "startDate"] as const;
export type EMandateField = (typeof E_MANDATE_FIELDS)[number];
export type EMandateErrors = Partial<Record<EMandateField, ErrorCode>>;

/** The request as the form holds it: amounts in rand as typed. */
export type EMandateDraft = {
  payer: "customer" | "new";
  customerId: string;
  name: string;
  email: string;
  cellphone: string;
  language: Language;
  method: PaymentMethod;
  amount: string;
  maximum: string;
  interval: Interval;
  startDate: string;
  payerMayChange: EMandateChangeable[];
};

export function emptyEMandateDraft(language: Language): EMandateDraft {
  return {
    payer: "customer",
    customerId: "",
    name: "",
    email: "",
    cellphone: "",
    language,
    method: "debicheck",
    amount: "",
    maximum: "",
    interval: "monthly",
    startDate: "",
    payerMayChange: [],
  };
}

/**
 * The command's input, or the errors the form can see for itself (empty or unreadable
 * fields); everything else (dates, limits, addresses) is the server's to judge.
 */
export function eMandateInputFrom(draft: EMandateDraft): { input?: EMandateRequestInput; errors: EMandateErrors } {
  const errors: EMandateErrors = {};
  if (draft.payer === "customer" && !draft.customerId) errors.customerId = "required";
  if (draft.payer === "new") {
    if (!draft.name.trim()) errors.name = "required";
    if (!draft.email.trim()) errors.email = "required";
  }
  const amount = randToCents(draft.amount);
  if (amount === undefined) errors.amountCents = "required";
  else if (amount === "invalid") errors.amountCents = "invalid_amount";
  const maximum = randToCents(draft.maximum);
  if (maximum === "invalid") errors.maxCents = "invalid_amount";
  if (!draft.startDate) errors.startDate = "required";
  if (Object.keys(errors).length > 0 || typeof amount !== "number" || maximum === "invalid") return { errors };
  const who =
    draft.payer === "customer"
      ? { customerId: draft.customerId, name: "", email: "", cellphone: "" }
      : { name: draft.name.trim(), email: draft.email.trim(), cellphone: draft.cellphone.trim() };
  return {
    errors,
    input: {
      ...who,
      language: draft.language,
      method: draft.method,
      amountCents: amount,
      ...(maximum === undefined ? {} : { maxCents: maximum }),
      interval: draft.interval,
      startDate: draft.startDate,
      payerMayChange: CHANGEABLE.filter((term) => draft.payerMayChange.includes(term)),
    },
  };
}

/** The payer's link as they open it: the server gives a path on itself. */
export function absoluteLink(link: string, origin: string): string {
  return new URL(link, origin).toString();
}
