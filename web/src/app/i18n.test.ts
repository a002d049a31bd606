import { describe, expect, it } from "vitest";
import { languageFromBrowser, languageFromCookie } from "./i18n";

describe("language choice", () => {
  it("gives browsers that ask for Afrikaans the afr interface", () => {
    expect(languageFromBrowser(["af"])).toBe("afr");
    expect(languageFromBrowser(["af-ZA", "en"])).toBe("afr");
    expect(languageFromBrowser(["en-ZA", "af"])).toBe("en");
    expect(languageFromBrowser(["zu-ZA"])).toBe("en");
    expect(languageFromBrowser([])).toBe("en");
  });

  it("reads the stored choice from the locale cookie", () => {
    expect(languageFromCookie("a=1; locale=afr; b=2")).toBe("afr");
    expect(languageFromCookie("locale=en")).toBe("en");
    expect(languageFromCookie("locale=de")).toBeUndefined();
    expect(languageFromCookie("")).toBeUndefined();
  });
});
