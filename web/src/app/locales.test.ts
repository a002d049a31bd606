import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import afr from "../../../locales/afr.json";
import en from "../../../locales/en.json";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") out.set(prefix + key, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) out.set(inner, text);
  }
  return out;
}

// The ErrorCode union as generated from the protocol crate.
function errorCodes(): string[] {
  const wire = readFileSync(resolve(import.meta.dirname, "../protocol/wire.ts"), "utf8");
  const union = /export type ErrorCode = ([^;]+);/.exec(wire)?.[1] ?? "";
  return [...union.matchAll(/"([a-z_]+)"/g)].map((match) => match[1]);
}

describe("locales", () => {
  const english = flatten(en as Tree);
  const afrikaans = flatten(afr as Tree);

  it("have the same keys in both languages", () => {
    expect([...afrikaans.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it("translate every error code the protocol can send", () => {
    const codes = errorCodes();
    expect(codes.length).toBeGreaterThan(10);
    for (const code of codes) {
      expect(english.get(`errors.${code}`), code).toBeTruthy();
      expect(afrikaans.get(`errors.${code}`), code).toBeTruthy();
    }
  });

  it("are really translated, not English copies", () => {
    // Words Afrikaans shares with English, and names.
    const same = new Set(["Paydesk", "English", "Afrikaans", "Status", "Data", "Webhook", "Webhooks", "DebiCheck", "Filters", "Interval", "Minimum", "Mastercard", "American Express", "Diners Club"]);
    const untranslated = [...english]
      .filter(([key, text]) => afrikaans.get(key) === text && /[a-z]{4,}/.test(text) && !same.has(text))
      .map(([key]) => key);
    expect(untranslated).toEqual([]);
  });

  it("keep the same placeholders in both languages", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();
    for (const [key, text] of english) expect(placeholders(afrikaans.get(key) ?? ""), key).toEqual(placeholders(text));
  });
});
