import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import msgpack from "msgpack-lite";
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

  it.each([
    ["R99 999 999", 9_999_999_900],
    ["2^32 cents", 2 ** 32],
    ["a large debit", -(2 ** 40)],
  ])("sends %s as a MessagePack int64, not a float, and reads it back as a number", (_label, cents) => {
    const frame: ClientFrame = { t: "Command", id: "c", command: { t: "RequestPayout", amountCents: cents } };
    const bytes = encodeFrame(frame);
    const int64 = Buffer.alloc(9);
    int64[0] = 0xd3;
    int64.writeBigInt64BE(BigInt(cents), 1);
    expect(Buffer.from(bytes).includes(int64)).toBe(true);
    expect(bytes.includes(0xcb)).toBe(false);
    expect(decodeAny(bytes)).toEqual(frame);
  });

  it("keeps 32-bit integers in their compact forms", () => {
    const bytes = encodeFrame({ t: "Command", id: "c", command: { t: "RequestPayout", amountCents: 0xffff_ffff } });
    expect(Buffer.from(bytes).includes(Buffer.from([0xce, 0xff, 0xff, 0xff, 0xff]))).toBe(true);
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

describe("bytes", () => {
  const chunk: ClientFrame = {
    t: "Command",
    id: "c",
    command: { t: "UploadImportChunk", uploadId: "upl_1", offset: 0, data: new Uint8Array([0, 1, 2, 255]) },
  };

  it("sends a Uint8Array as MessagePack bin, not as an ext value or a map", () => {
    const bytes = Buffer.from(encodeFrame(chunk));
    // bin 8 (0xc4), length 4, then the bytes themselves.
    expect(bytes.includes(Buffer.from([0xc4, 0x04, 0x00, 0x01, 0x02, 0xff]))).toBe(true);
    expect(bytes.includes(0xc7)).toBe(false);
  });

  it("round-trips a Uint8Array as bytes, a slice of a larger buffer too", () => {
    const whole = new Uint8Array([9, 9, 7, 8, 9, 9]);
    const frame: ClientFrame = { ...chunk, command: { t: "UploadImportChunk", uploadId: "upl_1", offset: 2, data: whole.subarray(2, 4) } };
    const decoded = decodeAny(encodeFrame(frame)) as { command: { data: unknown } };
    expect(decoded.command.data).toBeInstanceOf(Uint8Array);
    expect([...(decoded.command.data as Uint8Array)]).toEqual([7, 8]);
  });

  it("reads a server file chunk's bin data as a Uint8Array", () => {
    const raw = msgpack.encode({
      t: "Reply",
      id: "q",
      ok: { t: "FileChunk", chunk: { fileName: "a.csv", contentType: "text/csv", data: Buffer.from("a,b\n"), total: 4 } },
    });
    const frame = decodeFrame(raw);
    if (frame.t !== "Reply" || frame.ok?.t !== "FileChunk") throw new Error("not a file chunk");
    expect(frame.ok.chunk.data).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(frame.ok.chunk.data)).toBe("a,b\n");
  });
});
