import { describe, expect, it } from "vitest";
import { resolveTheme } from "./theme";

describe("resolveTheme", () => {
  it("follows the system only when asked to", () => {
    expect(resolveTheme("system", null, true)).toBe("dark");
    expect(resolveTheme("system", null, false)).toBe("light");
    expect(resolveTheme("light", null, true)).toBe("light");
    expect(resolveTheme("dark", null, false)).toBe("dark");
  });

  it("lets a page force light or dark over any preference", () => {
    expect(resolveTheme("dark", "light", true)).toBe("light");
    expect(resolveTheme("system", "dark", false)).toBe("dark");
  });
});
