import { defineConfig } from "vitest/config";

// End-to-end: real backend, real Chromium, two files at a time. The benchmarks in e2e/bench
// measure and are run by hand (E2E_BENCH=1), never with the suite.
const bench = Boolean(process.env.E2E_BENCH);

export default defineConfig({
  test: {
    include: bench ? ["e2e/bench/**/*.e2e.ts"] : ["e2e/**/*.e2e.ts"],
    exclude: bench ? [] : ["e2e/bench/**", "**/node_modules/**"],
    globalSetup: ["e2e/global-setup.ts"],
    setupFiles: ["e2e/close-browser.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    maxWorkers: 2,
    pool: "forks",
  },
});
