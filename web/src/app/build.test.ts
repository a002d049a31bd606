import { describe, expect, it, vi } from "vitest";
import { reloadForBuild } from "./build";

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => [...data.keys()][index] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, value),
  };
}

describe("reloadForBuild", () => {
  it("reloads once per server build, never in a loop", () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadForBuild("b2", storage, reload)).toBe(true);
    expect(reloadForBuild("b2", storage, reload)).toBe(false);
    expect(reload).toHaveBeenCalledOnce();
    expect(reloadForBuild("b3", storage, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
