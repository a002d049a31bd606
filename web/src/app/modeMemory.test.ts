import { describe, expect, it } from "vitest";
import { rememberedMode, rememberMode } from "./modeMemory";

function memoryStorage() {
  const values = new Map<string, string>();
  return { getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => void values.set(key, value) };
}

describe("mode memory", () => {
  it("gives back the mode the tab last showed", () => {
    const storage = memoryStorage();
    expect(rememberedMode(storage)).toBeUndefined();
    rememberMode(storage, "test");
    expect(rememberedMode(storage)).toBe("test");
    rememberMode(storage, "live");
    expect(rememberedMode(storage)).toBe("live");
  });

  it("ignores what it did not write and storage that refuses", () => {
    expect(rememberedMode({ getItem: () => "staging", setItem: () => undefined })).toBeUndefined();
    const refusing = {
      getItem: (): string | null => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    expect(rememberedMode(refusing)).toBeUndefined();
    expect(() => rememberMode(refusing, "test")).not.toThrow();
  });
});
