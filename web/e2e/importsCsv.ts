import { inDays } from "./dates";

/** The once-off EFT debit order layout's columns, as DOMAIN.md names them. */
export const EFT_ONCE_HEADER = [
  "Customer reference",
  "Person name",
  "Person surname",
  "Email",
  "Bank account holder name",
  "Bank account number",
  "Bank account type",
  "Bank name",
  "Bank branch code",
  "Amount",
  "Date to process",
  "Type of payment",
] as const;

export type EftOnceRow = Record<(typeof EFT_ONCE_HEADER)[number], string>;

function cell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A comma-separated file with a header row, as a spreadsheet saves it. */
export function csvOf(header: readonly string[], rows: Record<string, string>[]): string {
  return [header.map(cell).join(","), ...rows.map((row) => header.map((column) => cell(row[column] ?? "")).join(","))].join("\r\n") + "\r\n";
}

export { inDays };

export function eftOnceRow(reference: string, name: string, surname: string, overrides: Partial<EftOnceRow> = {}): EftOnceRow {
  return {
    "Customer reference": reference,
    "Person name": name,
    "Person surname": surname,
    Email: `${reference.toLowerCase()}@example.co.za`,
    "Bank account holder name": `${name} ${surname}`,
    "Bank account number": "4000000001",
    "Bank account type": "Savings",
    "Bank name": "Capitec",
    "Bank branch code": "470010",
    Amount: "150.00",
    "Date to process": inDays(7),
    "Type of payment": "Subscription",
    ...overrides,
  };
}
