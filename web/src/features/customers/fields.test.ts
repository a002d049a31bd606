import { describe, expect, it } from "vitest";
import { EMPTY_DRAFT, errorsByField, inputFrom } from "./fields";

describe("customer fields", () => {
  it("sends no ID type when none is chosen and trims text", () => {
    const input = inputFrom({ ...EMPTY_DRAFT, name: "  Thandi  " });
    expect(input.name).toBe("Thandi");
    expect(input.idType).toBeUndefined();
  });

  it("maps server field errors to form fields, first error wins", () => {
    expect(
      errorsByField([
        { field: "email", code: "invalid_email" },
        { field: "email", code: "required" },
        { field: "address_line1", code: "too_long" },
        { field: "unknown", code: "required" },
      ]),
    ).toEqual({ email: "invalid_email", addressLine1: "too_long" });
  });
});
