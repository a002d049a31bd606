import { describe, expect, it } from "vitest";
import { loginPathFor, safeRedirect } from "./redirect";

describe("safeRedirect", () => {
  it("keeps paths of this site", () => {
    expect(safeRedirect("/customers?status=all")).toBe("/customers?status=all");
    expect(safeRedirect("/mandates/man_1#history")).toBe("/mandates/man_1#history");
  });

  it("refuses what a browser would read as another site", () => {
    for (const value of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r/evil.example",
      "//evil.example",
      "/\\evil.example",
      "/./\t/evil.example",
      "https://evil.example/",
      "",
      null,
    ]) {
      expect(safeRedirect(value, "/home")).toBe("/home");
    }
  });
});

describe("loginPathFor", () => {
  it("carries the destination in the redirect query that sign-in reads back", () => {
    const login = new URL(loginPathFor("/account/teams/invite/tok_1"), "https://app.invalid");
    expect(login.pathname).toBe("/auth/login");
    expect(safeRedirect(login.searchParams.get("redirect"))).toBe("/account/teams/invite/tok_1");
  });
});
