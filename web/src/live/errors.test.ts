import { describe, expect, it } from "vitest";
import { LiveError } from "./client";
import { codeOf, readCodeOf } from "./errors";

describe("codeOf", () => {
  it("gives the wire's code of a refused request and internal for anything else", () => {
    expect(codeOf(new LiveError({ code: "forbidden" }))).toBe("forbidden");
    expect(codeOf(new Error("unexpected reply Done"))).toBe("internal");
  });
});

describe("readCodeOf", () => {
  it("names the first field's fault, which a screen without fields can say", () => {
    const refused = new LiveError({ code: "invalid_input", fields: [{ field: "to", code: "date_range_too_long" }, { field: "from", code: "invalid_date" }] });
    expect(readCodeOf(refused)).toBe("date_range_too_long");
  });

  it("falls back to the request's code, and to internal", () => {
    expect(readCodeOf(new LiveError({ code: "not_found" }))).toBe("not_found");
    expect(readCodeOf(new LiveError({ code: "invalid_input", fields: [] }))).toBe("invalid_input");
    expect(readCodeOf(new Error("lost"))).toBe("internal");
  });
});
