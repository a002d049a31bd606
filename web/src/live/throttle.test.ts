import { describe, expect, it } from "vitest";
import { throttleDelay } from "./throttle";

describe("throttleDelay", () => {
  it("runs at once the first time and when the gap has passed", () => {
    expect(throttleDelay(undefined, 5_000, 1_000)).toBe(0);
    expect(throttleDelay(3_000, 5_000, 1_000)).toBe(0);
  });

  it("waits out the rest of the gap otherwise", () => {
    expect(throttleDelay(4_600, 5_000, 1_000)).toBe(600);
    expect(throttleDelay(5_000, 5_000, 1_000)).toBe(1_000);
  });
});
