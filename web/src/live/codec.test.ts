import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { ClientFrame } from "../protocol/wire";
import { decodeAny, decodeFrame, encodeFrame, FrameTooLargeError } from "./codec";

const fixtures = resolve(import.meta.dirname, "../../../protocol/fixtures");
const names = readdirSync(fixtures)
  .filter((file) => file.endsWith(".msgpack"))
  .map((file) => file.replace(/\.msgpack$/, ""));

function load(name: string) {
  return {
    bytes: new Uint8Array(readFileSync(resolve(fixtures, `${name}.msgpack`))),
    json: JSON.parse(readFileSync(resolve(fixtures, `${name}.json`), "utf8")) as unknown,
  };
}

describe("golden fixtures", () => {
  it("finds fixtures from both directions", () => {
    expect(names.some((name) => name.startsWith("client_"))).toBe(true);
    expect(names.some((name) => name.startsWith("server_"))).toBe(true);
  });

  it.each(names)("decodes %s to its JSON twin", (name) => {
    const { bytes, json } = load(name);
    const decoded = name.startsWith("server_") ? decodeFrame(bytes) : decodeAny(bytes);
    expect(decoded).toEqual(json);
  });

  it.each(names.filter((name) => name.startsWith("client_")))("encodes %s and reads it back", (name) => {
    const { bytes, json } = load(name);
    const encoded = encodeFrame(json as ClientFrame);
    expect(decodeAny(encoded)).toEqual(json);
    expect(Buffer.from(encoded).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe("codec", () => {
  it("drops undefined optionals instead of sending nil", () => {
    const encoded = encodeFrame({ t: "Presence", viewing: undefined });
    expect(decodeAny(encoded)).toEqual({ t: "Presence" });
  });

  it("keeps integers up to 2^53 exact", () => {
    const { bytes } = load("server_welcome");
    const frame = decodeFrame(bytes);
    expect(frame.t === "Welcome" && frame.seq).toBe(9007199254740000);
  });

  it("refuses frames over 64 KiB", () => {
    const frame: ClientFrame = {
      t: "Query",
      id: "q",
      query: { t: "ListCustomers", status: "all", search: "x".repeat(70_000) },
    };
    expect(() => encodeFrame(frame)).toThrow(FrameTooLargeError);
  });

  it("rejects a frame that is not a tagged map", () => {
    expect(() => decodeFrame(encodeFrame({ t: "Ping" }).slice(0, 0))).toThrow();
  });
});
