import { describe, expect, it } from "vitest";
import { csvCell, startsFormula } from "./spreadsheetCells";

describe("startsFormula", () => {
  it.each(['=HYPERLINK("http://x","y")', "+1+1", "@SUM(A1)", "-2+3", "\t=1+1", "\r=1+1", "\n=1+1", "-", "-1.2.3", "+12"])(
    "finds a formula in %j",
    (value) => {
      expect(startsFormula(value)).toBe(true);
    },
  );

  it.each(["-12.50", "-12", "-.5", "12.50", "Thandi", "", " =1", "O'Brien"])("leaves %j alone", (value) => {
    expect(startsFormula(value)).toBe(false);
  });
});

describe("csvCell", () => {
  it("puts an apostrophe before a formula only", () => {
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("-12.50")).toBe("-12.50");
    expect(csvCell("Nkosi, T")).toBe("Nkosi, T");
  });
});
