import Papa from "papaparse";
import { csvCell, quoteCsvCell } from "../../components/spreadsheetCells";
import type { Transaction } from "../../protocol/wire";

export const CSV_COLUMNS = [
  "id",
  "actionDate",
  "status",
  "unpaidCode",
  "amount",
  "fee",
  "net",
  "paidOn",
  "method",
  "customer",
  "reference",
  "bank",
  "accountLastDigits",
  "attempt",
] as const;

export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** The words of one export: column titles and the names of statuses, methods and banks. */
export type CsvLabels = {
  header: Record<CsvColumn, string>;
  status: (status: Transaction["status"]) => string;
  method: (method: Transaction["method"]) => string;
  bank: (bank: Transaction["bank"]) => string;
};

/** Cents as rand with two decimals and a point, the way spreadsheets read numbers: 1234.50. */
export function centsToRand(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(cents) / 100);
  const fraction = String(Math.abs(cents) % 100).padStart(2, "0");
  return `${sign}${whole}.${fraction}`;
}

/** The business day the bank paid a transaction, from its steps; empty while it is not paid. */
export function paidOn(transaction: Transaction): string {
  return transaction.history.find((step) => step.status === "paid")?.date ?? "";
}

export function csvRow(transaction: Transaction, labels: CsvLabels): Record<CsvColumn, string> {
  return {
    id: transaction.id,
    actionDate: transaction.actionDate,
    status: labels.status(transaction.status),
    unpaidCode: transaction.unpaidCode ?? "",
    amount: centsToRand(transaction.amountCents),
    // For reconciliation: what the bank paid in, less the processing fee, and on which day.
    fee: centsToRand(transaction.feeCents),
    net: centsToRand(transaction.netCents),
    paidOn: paidOn(transaction),
    method: labels.method(transaction.method),
    customer: transaction.customerName,
    reference: transaction.reference,
    bank: labels.bank(transaction.bank),
    accountLastDigits: transaction.accountLastDigits,
    attempt: String(transaction.attempt),
  };
}

/**
 * The CSV text of an export: a header row, then one row per transaction. Every cell
 * that could start a formula is prefixed with an apostrophe and quoted, so a hostile
 * customer name stays text in Excel, Sheets and LibreOffice; a negative amount stays a number.
 */
export function buildTransactionsCsv(transactions: Transaction[], labels: CsvLabels): string {
  const fields = CSV_COLUMNS.map((column) => csvCell(labels.header[column]));
  const data = transactions.map((transaction) => {
    const row = csvRow(transaction, labels);
    return CSV_COLUMNS.map((column) => csvCell(row[column]));
  });
  return Papa.unparse({ fields, data }, { quotes: quoteCsvCell, newline: "\r\n" });
}

/** `transactions-YYYY-MM-DD.csv`, dated by the calendar day of the export. */
export function exportFileName(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `transactions-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
