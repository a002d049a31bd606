// Cells of the files a user downloads. A value someone typed (a customer's name, a reference)
// can start with =, +, - or @, or hide one behind a tab or a line break: a spreadsheet program
// opening the file would run it as a formula. Every download writes its cells through here.
// The backend's `paydesk::domain::downloads` applies the same rule to the files it makes.

const FORMULA_START = /^[=+\-@\t\r\n]/;
// An optional minus, digits and at most one point: -12.50 stays a number.
const PLAIN_NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;

/** Whether a spreadsheet program would read the value as a formula. */
export function startsFormula(value: string): boolean {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value);
}

/** A value for a CSV file: one that would start a formula gets an apostrophe, shown as text. */
export function csvCell(value: string): string {
  return startsFormula(value) ? `'${value}` : value;
}

/** Quote a neutralised cell too, so the apostrophe and what follows stay one piece of text. */
export function quoteCsvCell(value: unknown): boolean {
  return typeof value === "string" && value.startsWith("'");
}
