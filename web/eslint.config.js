import { readdirSync } from "node:fs";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Read from disk so a new feature folder is fenced in without touching this file.
const FEATURES = readdirSync(new URL("./src/features/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// Links and navigation inside the signed-in app keep the tab's business and mode in the
// address: they come from components/placeLinks.tsx, which wraps react-router's own.
const PLACE_LINKS = {
  name: "react-router",
  importNames: ["Link", "NavLink", "Navigate", "useNavigate"],
  message: "Import it from src/components/placeLinks.tsx, so the address keeps the business and mode.",
};
// The wrappers themselves and what moves the tab itself use react-router's own.
const RAW_ROUTER_LINKS = ["src/components/placeLinks.tsx", "src/app/PlaceSync.tsx", "src/app/shell/useSwitchPlace.ts"];

// Everywhere: string unions over enums, named exports.
const BASE_SYNTAX = [
  { selector: "TSEnumDeclaration", message: "Use a string union instead of an enum." },
  { selector: "ExportDefaultDeclaration", message: "Use named exports." },
];
// Screens and shared components read through the live layer, which follows changes, keeps
// answers and maps errors in one place; only src/live/ asks the socket itself.
const ASKS_THE_SOCKET = {
  selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='query']",
  message:
    "Read through src/live/: useLiveQuery, useRecord or usePagedList for what a screen shows, useAsk (and readAllPages) for a one-shot read such as a file or an export.",
};

// Features stay independent: what two of them need belongs in components/ or live/. Import
// paths are matched as written, not resolved, so the other features are named outright; that
// catches relative climbs of any depth, `../../features/x`, and `@/`, `~/` or `src/` aliases.
function featureBoundary(feature) {
  const others = FEATURES.filter((name) => name !== feature).join("|");
  return {
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [PLACE_LINKS],
          patterns: [
            {
              regex: `^(?:(?:\\./)?(?:\\.\\./)+(?:features/)?|(?:@|~|/?src)/features/)(?:${others})(?:/|$)`,
              message: `features/${feature} may not import another feature; move the shared code to src/components/ or src/live/.`,
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ["dist", "test-results", "node_modules"] },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/consistent-type-definitions": ["error", "type"],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "no-restricted-syntax": ["error", ...BASE_SYNTAX],
    },
  },
  {
    files: ["src/features/**/*.{ts,tsx}", "src/components/**/*.{ts,tsx}"],
    rules: { "no-restricted-syntax": ["error", ...BASE_SYNTAX, ASKS_THE_SOCKET] },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    ignores: [...RAW_ROUTER_LINKS, "src/features/**"],
    rules: { "no-restricted-imports": ["error", { paths: [PLACE_LINKS] }] },
  },
  ...FEATURES.map(featureBoundary),
  {
    files: ["*.config.ts", "*.config.js"],
    rules: { "no-restricted-syntax": "off" },
  },
);
