import { describe, expect, it } from "vitest";
import { changedFields, mergedWithChoices, splitConflict, textOf } from "./conflict";

type Page = { title: string; amountCents?: number; methods: string[]; expiresOn?: string };

describe("mergedWithChoices", () => {
  const mine: Page = { title: "Evening yoga", methods: ["card"] };
  const conflict = {
    version: 9,
    fields: [
      { field: "title", theirs: "Yoga class" },
      { field: "amountCents", theirs: "18000" },
      { field: "methods", theirs: '["card","instant_eft"]' },
      { field: "expiresOn", theirs: "2026-12-31" },
    ],
  };

  it("takes the teammate's values only where chosen, shaped like the user's", () => {
    const merged = mergedWithChoices(mine, conflict, { title: "yours", amountCents: "theirs", methods: "theirs", expiresOn: "theirs" });
    expect(merged).toEqual({ title: "Evening yoga", amountCents: 18000, methods: ["card", "instant_eft"], expiresOn: "2026-12-31" });
  });

  it("clears a value the teammate removed", () => {
    const merged = mergedWithChoices({ ...mine, amountCents: 100 }, { version: 9, fields: [{ field: "amountCents", theirs: "" }] }, { amountCents: "theirs" });
    expect(merged.amountCents).toBeUndefined();
  });

  it("shows values as the server names them", () => {
    expect(textOf(undefined)).toBe("");
    expect(textOf("x")).toBe("x");
    expect(textOf(7)).toBe("7");
    expect(textOf(["card"])).toBe('["card"]');
  });
});

describe("splitConflict", () => {
  const start: Page = { title: "Yoga", amountCents: 15000, methods: ["card"] };
  const conflict = {
    version: 12,
    fields: [
      { field: "title", theirs: "Yoga class" },
      { field: "amountCents", theirs: "18000" },
    ],
  };

  it("takes the teammate's value where only they changed a field, and keeps the user's own edits", () => {
    const mine: Page = { ...start, methods: ["card", "instant_eft"] };
    const { merged, clashes } = splitConflict(mine, start, conflict);
    expect(merged).toEqual({ title: "Yoga class", amountCents: 18000, methods: ["card", "instant_eft"] });
    expect(clashes).toEqual({ version: 12, fields: [] });
  });

  it("names as clashes only the fields both changed to different values", () => {
    const mine: Page = { ...start, title: "Evening yoga", amountCents: 18000 };
    const { merged, clashes } = splitConflict(mine, start, conflict);
    expect(clashes.fields).toEqual([{ field: "title", theirs: "Yoga class" }]);
    expect(merged.title).toBe("Evening yoga");
    expect(merged.amountCents).toBe(18000);
  });

  it("keeps the user's edit of a field the server named only because it differs from what was sent", () => {
    const mine: Page = { ...start, title: "Evening yoga" };
    const { merged, clashes } = splitConflict(mine, start, { version: 13, fields: [{ field: "title", theirs: "Yoga" }] });
    expect(clashes.fields).toEqual([]);
    expect(merged.title).toBe("Evening yoga");
  });
});

describe("changedFields", () => {
  it("lists the fields whose values differ, in the order given", () => {
    const before: Page = { title: "Yoga", amountCents: 15000, methods: ["card"] };
    const after: Page = { title: "Yoga", amountCents: 18000, methods: ["card", "instant_eft"] };
    expect(changedFields(before, after, ["title", "methods", "amountCents"])).toEqual(["methods", "amountCents"]);
  });
});
