import { describe, expect, it } from "vitest";
import { safeRedirect } from "./redirect";

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
