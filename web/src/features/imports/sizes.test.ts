import { describe, expect, it } from "vitest";
import { formatBytes } from "./sizes";

describe("formatBytes", () => {
  it("reads bytes, kilobytes and megabytes", () => {
    expect(formatBytes(512, "en")).toMatch(/512\s?byte/);
    expect(formatBytes(48 * 1024, "en")).toMatch(/48\s?kB/);
    expect(formatBytes(3.5 * 1024 * 1024, "en")).toMatch(/3[.,]5\s?MB/);
  });
});
