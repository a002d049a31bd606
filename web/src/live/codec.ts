import { Int64BE } from "int64-buffer";
import msgpack from "msgpack-lite";
import type { ClientFrame, ServerFrame } from "../protocol/wire";
import { MAX_FRAME_BYTES } from "../protocol/wire";

export class FrameTooLargeError extends Error {
  constructor(readonly size: number) {
    super(`frame of ${size} bytes exceeds ${MAX_FRAME_BYTES}`);
  }
}

// Bytes travel as MessagePack bin. msgpack-lite writes bin only for what its codec calls a
// buffer: without this option that is Node's Buffer, so in a browser a Uint8Array became
// an ext value (type 0x12) the server cannot read. With it, ArrayBuffers are bin both ways.
const codec = msgpack.createCodec({ binarraybuffer: true });

function exactArrayBuffer(view: ArrayBufferView): ArrayBuffer {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice().buffer;
}

const INT32_MIN = -0x8000_0000;
const UINT32_MAX = 0xffff_ffff;

// msgpack-lite writes a number outside the 32-bit range as float64, even a whole one, and
// the server (rmp-serde into i64) refuses a float where it expects an integer: an amount of
// R42 949 673 or more would drop the socket. Such integers go out as int64 (0xd3) instead.
function asWireNumber(value: number): number | Int64BE {
  const fitsInt32Family = value >= INT32_MIN && value <= UINT32_MAX;
  return Number.isSafeInteger(value) && !fitsInt32Family ? new Int64BE(value) : value;
}

// The server reads absent and nil alike for optional fields, but dropping
// undefined keeps frames small and byte-identical to the golden fixtures.
function toWireValue(value: unknown): unknown {
  if (typeof value === "number") return asWireNumber(value);
  if (ArrayBuffer.isView(value)) return exactArrayBuffer(value);
  if (Array.isArray(value)) return value.map(toWireValue);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (inner !== undefined) out[key] = toWireValue(inner);
    }
    return out;
  }
  return value;
}

// Nil from the server means "absent", matching the optional fields in wire.ts.
function withoutNull(value: unknown): unknown {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (Array.isArray(value)) return value.map(withoutNull);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (inner !== null) out[key] = withoutNull(inner);
    }
    return out;
  }
  return value;
}

export function encodeFrame(frame: ClientFrame): Uint8Array {
  const bytes: Uint8Array = msgpack.encode(toWireValue(frame), { codec });
  if (bytes.byteLength > MAX_FRAME_BYTES) throw new FrameTooLargeError(bytes.byteLength);
  return bytes;
}

export function decodeFrame(data: ArrayBuffer | Uint8Array): ServerFrame {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const value: unknown = msgpack.decode(bytes, { codec });
  if (value === null || typeof value !== "object" || Array.isArray(value) || typeof (value as { t?: unknown }).t !== "string") {
    throw new Error("frame is not a tagged map");
  }
  return withoutNull(value) as ServerFrame;
}

// For tests and tools that need to read a client frame back.
export function decodeAny(data: Uint8Array): unknown {
  return withoutNull(msgpack.decode(data, { codec }));
}
