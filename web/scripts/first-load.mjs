// Measures what a browser fetches on its first visit to the built app: the
// shell (index.html, its script, the chunks it preloads and its styles) plus
// the screen of the route in hand with everything that screen imports. Sizes
// are gzipped, as the server sends them. Exits 1 when a route's first load is
// over the budget, so a heavy library cannot slip into the first load unseen.
//
//   node scripts/first-load.mjs            (after `npm run build`)

import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_KB = 250;
const dist = resolve(import.meta.dirname, "..", "dist");
const assets = join(dist, "assets");
const gzipped = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

/** A chunk with every chunk it imports statically, as the browser fetches them. */
function closure(start, seen = new Set()) {
  if (seen.has(start)) return seen;
  seen.add(start);
  const code = readFileSync(join(assets, start), "utf8");
  for (const [, name] of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) closure(name, seen);
  return seen;
}

const html = readFileSync(join(dist, "index.html"), "utf8");
const shellFiles = new Set();
for (const [, name] of html.matchAll(/(?:src|href)="\/assets\/([^"]+\.(?:js|css))"/g)) {
  if (name.endsWith(".js")) closure(name, shellFiles);
  else shellFiles.add(name);
}
const shell = gzipped(join(dist, "index.html")) + [...shellFiles].reduce((sum, f) => sum + gzipped(join(assets, f)), 0);

// Screens are the chunks named after a page component (`…Page-hash.js`).
const screens = readdirSync(assets).filter((f) => /Page-[\w-]+\.js$/.test(f));
const rows = screens.map((screen) => {
  const extra = [...closure(screen)].filter((f) => !shellFiles.has(f));
  return { screen: screen.replace(/-[\w-]+\.js$/, ""), kb: (shell + extra.reduce((s, f) => s + gzipped(join(assets, f)), 0)) / 1024 };
});
rows.sort((a, b) => b.kb - a.kb);

console.log(`shell: ${(shell / 1024).toFixed(1)} KB gzipped (${shellFiles.size} files)`);
for (const { screen, kb } of rows) console.log(`${kb.toFixed(1).padStart(7)} KB  first load on ${screen}`);
const over = rows.filter((r) => r.kb > BUDGET_KB);
if (over.length > 0) {
  console.error(`over the ${BUDGET_KB} KB budget: ${over.map((r) => r.screen).join(", ")}`);
  process.exit(1);
}
