import { describe, expect, it } from "vitest";
import { rememberedPlace, rememberPlace } from "./placeMemory";

function memoryStorage() {
  const values = new Map<string, string>();
  return { getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => void values.set(key, value) };
}

describe("place memory", () => {
  it("gives back the business and mode the tab last showed", () => {
    const storage = memoryStorage();
    expect(rememberedPlace(storage)).toEqual({ merchantId: undefined, mode: undefined });
    rememberPlace(storage, { merchantId: "mer_karoo", mode: "test" });
    expect(rememberedPlace(storage)).toEqual({ merchantId: "mer_karoo", mode: "test" });
    rememberPlace(storage, { merchantId: "mer_own", mode: "live" });
    expect(rememberedPlace(storage)).toEqual({ merchantId: "mer_own", mode: "live" });
  });

  it("ignores what it did not write and storage that refuses", () => {
    expect(rememberedPlace({ getItem: () => "business=a%20b&mode=staging", setItem: () => undefined })).toEqual({
      merchantId: undefined,
      mode: undefined,
    });
    const refusing = {
      getItem: (): string | null => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    expect(rememberedPlace(refusing)).toEqual({});
    expect(() => rememberPlace(refusing, { merchantId: "mer_1", mode: "test" })).not.toThrow();
  });
});
