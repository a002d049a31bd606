import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { commandNeedsByName } from "../live/access";
import type { Command } from "../protocol/wire";

const src = resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    // Controls live in components (.tsx); a helper that only builds a command is checked where it is sent from.
    return entry.name.endsWith(".tsx") && !entry.name.endsWith(".test.tsx") ? [path] : [];
  });
}

function isCommand(name: string): name is Command["t"] {
  try {
    return commandNeedsByName(name as Command["t"]).every((need) => need !== undefined);
  } catch {
    return false;
  }
}

// A command whose need depends on its action is declared through the table of its actions' needs.
const NEED_TABLES: Partial<Record<Command["t"], string>> = { ActOnUnpaid: "UNPAID_ACTION_NEEDS" };

// Every screen that sends a command also says, in the same file, what the command needs: its
// controls then refuse a role the server would refuse, instead of failing after the submit.
describe("role-aware screens", () => {
  it("declare what each command they send needs", () => {
    const undeclared: string[] = [];
    for (const file of [...sources(join(src, "features")), ...sources(join(src, "components"))]) {
      const text = readFileSync(file, "utf8");
      const sent = new Set([...text.matchAll(/\bt: "([A-Z][A-Za-z]+)"/g)].map((match) => match[1]).filter(isCommand));
      for (const name of sent) {
        const needs = commandNeedsByName(name);
        if (needs.includes("own_account")) continue;
        const table = NEED_TABLES[name];
        if (table && text.includes(`${table}[`)) continue;
        if (!needs.some((need) => text.includes(`"${need}"`))) undeclared.push(`${relative(src, file)}: ${name} needs ${needs.join(" or ")}`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});
