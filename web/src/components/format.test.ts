import { describe, expect, it } from "vitest";
import { formatBasisPoints, formatBusinessDate, formatDate, formatDateTime, formatList, formatMoney, formatPhone } from "./format";

// Intl puts narrow no-break spaces between digit groups; compare with plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("format", () => {
  it("writes cents as rand", () => {
    expect(plain(formatMoney(123450, "en"))).toBe("R 1 234,50");
    expect(plain(formatMoney(5, "afr"))).toBe("R 0,05");
  });

  it("keeps a business date on its own day whatever the time zone", () => {
    expect(formatBusinessDate("2026-03-01", "en")).toContain("2026");
    expect(formatBusinessDate("2026-03-01", "en")).toMatch(/^0?1 /);
    expect(formatBusinessDate("not a date", "en")).toBe("not a date");
  });

  it("shows times on South African time, the business day's, whatever the browser's zone", () => {
    // 23:45 on 28 November in UTC is 01:45 on the 29th in South Africa (UTC+2).
    const late = Date.UTC(2026, 10, 28, 23, 45);
    expect(plain(formatDateTime(late, "en"))).toMatch(/^29 Nov 2026.*01:45/);
    expect(plain(formatDate(late, "en"))).toMatch(/^29 Nov 2026/);
  });

  it("lists names as a sentence in the interface language", () => {
    expect(formatList(["Teams"], "en")).toBe("Teams");
    expect(formatList(["Teams", "Customers"], "en")).toBe("Teams and Customers");
    expect(formatList(["Spanne", "Kliënte"], "afr")).toBe("Spanne en Kliënte");
  });

  it("writes basis points as a percentage", () => {
    expect(plain(formatBasisPoints(1000, "en"))).toBe("10%");
    expect(plain(formatBasisPoints(50, "en"))).toBe("0,5%");
  });

  it("groups South African phone numbers as people read them", () => {
    expect(formatPhone("0821234567")).toBe("082 123 4567");
    expect(formatPhone("+27821234567")).toBe("+27 82 123 4567");
    expect(formatPhone("+4420712345678")).toBe("+4420712345678");
    expect(formatPhone("12345678")).toBe("12345678");
    expect(formatPhone("")).toBe("");
  });
});
