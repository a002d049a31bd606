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

// The server reads absent and nil alike for optional fields, but dropping
// undefined keeps frames small and byte-identical to the golden fixtures.
function withoutUndefined(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) return exactArrayBuffer(value);
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (inner !== undefined) out[key] = withoutUndefined(inner);
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
  const bytes: Uint8Array = msgpack.encode(withoutUndefined(frame), { codec });
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
