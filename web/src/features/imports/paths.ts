import type { ImportTemplate, PaymentKind } from "../../protocol/wire";

export const IMPORT_TEMPLATES: readonly ImportTemplate[] = ["debicheck", "registered_mandate", "eft_debit_order"];

/** The spreadsheet formats the server reads. */
export const IMPORT_FILE_TYPES = ".xlsx,.xlsm,.xlsb,.xls,.ods,.csv";

function listPath(kind: PaymentKind): string {
  return kind === "once" ? "/payments/one-time" : "/payments/recurring";
}

export function importPath(kind: PaymentKind, id: string): string {
  return `${listPath(kind)}/imports/${id}`;
}

export function importsListPath(kind: PaymentKind): string {
  return listPath(kind);
}

export function createdPaymentPath(kind: PaymentKind, id: string): string {
  return `${listPath(kind)}/${id}`;
}
