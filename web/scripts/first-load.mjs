// Measures what a browser fetches on its first visit to the built app, from
// the build's manifest: the shell (index.html, the entry script with every
// chunk and stylesheet it imports), the words of one language, and the
// screen of the route in hand with everything it imports. Sizes are gzipped
// at the level the build's own .gz copies use. Exits 1 when a route's first
// load is over the budget, so a heavy library cannot slip in unseen.
//
//   node scripts/first-load.mjs            (after `npm run build`)

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_KB = 250;
const dist = resolve(import.meta.dirname, "..", "dist");
const manifest = JSON.parse(readFileSync(join(dist, ".vite", "manifest.json"), "utf8"));
const gzipped = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

/** The files a manifest entry brings: its chunk, the chunks it imports, and their styles. */
function files(key, seen = new Set()) {
  const entry = manifest[key];
  if (!entry || seen.has(entry.file)) return seen;
  seen.add(entry.file);
  for (const css of entry.css ?? []) seen.add(css);
  for (const imported of entry.imports ?? []) files(imported, seen);
  return seen;
}

const size = (set) => [...set].reduce((sum, file) => sum + gzipped(file), 0);
const shellFiles = files("index.html");
const shell = gzipped("index.html") + size(shellFiles);
const entries = Object.entries(manifest);
const beyondShell = (key) => new Set([...files(key)].filter((file) => !shellFiles.has(file)));

// Both languages are dynamic entries; a visitor fetches one, so count the larger.
const words = Math.max(...entries.filter(([key]) => /locales\/\w+\.json$/.test(key)).map(([key]) => size(beyondShell(key))));
const screens = entries.filter(([, entry]) => entry.isDynamicEntry && /Page$/.test(entry.name ?? ""));
const rows = screens.map(([key, entry]) => ({ screen: entry.name, kb: (shell + words + size(beyondShell(key))) / 1024 }));
rows.sort((a, b) => b.kb - a.kb);

console.log(`shell ${(shell / 1024).toFixed(1)} KB + words of one language ${(words / 1024).toFixed(1)} KB, gzipped`);
for (const { screen, kb } of rows) console.log(`${kb.toFixed(1).padStart(7)} KB  first load on ${screen}`);
if (rows.length === 0) {
  console.error("no screens found in the build's manifest");
  process.exit(1);
}
const over = rows.filter((row) => row.kb > BUDGET_KB);
if (over.length > 0) {
  console.error(`over the ${BUDGET_KB} KB budget: ${over.map((row) => row.screen).join(", ")}`);
  process.exit(1);
}
