import { defineConfig } from "vitest/config";

// End-to-end: real backend, real Chromium, two files at a time.
export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.ts"],
    globalSetup: ["e2e/global-setup.ts"],
    setupFiles: ["e2e/close-browser.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    maxWorkers: 2,
    pool: "forks",
  },
});
