import { describe, expect, it } from "vitest";
import { blankFields } from "./requiredFields";

describe("blankFields", () => {
  it("names the empty fields in form order", () => {
    expect(blankFields({ email: "", password: "", code: "123456" })).toEqual(["email", "password"]);
  });

  it("counts spaces alone as blank", () => {
    expect(blankFields({ email: "  \t", password: "correct-horse" })).toEqual(["email"]);
  });

  it("is empty when every field is filled in", () => {
    expect(blankFields({ email: "thandi@example.co.za", password: "x" })).toEqual([]);
  });
});
