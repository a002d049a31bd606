import { describe, expect, it } from "vitest";
import type { Command, ImportPreview, ReplyBody } from "../../protocol/wire";
import { chunkRanges, MAX_CHUNK_BYTES, uploadAndCheck, type UploadSource } from "./upload";

const preview: ImportPreview = {
  uploadId: "upl_1",
  kind: "once",
  template: "eft_debit_order",
  fileName: "june.csv",
  rows: 3,
  valid: 2,
  invalid: 1,
  issues: [{ row: 3, column: "Email", code: "invalid_email" }],
  issueCount: 1,
  duplicates: 0,
  duplicateRows: [],
};

function fileOf(bytes: Uint8Array, name = "june.csv"): UploadSource {
  return {
    name,
    size: bytes.byteLength,
    slice: (start, end) => ({ arrayBuffer: async () => bytes.slice(start, end).buffer }),
  };
}

// A server that keeps what it is sent and answers like the real one.
function fakeServer(chunkBytes: number) {
  const sent: Command[] = [];
  let received = 0;
  const client = {
    command: async (command: Command): Promise<ReplyBody> => {
      sent.push(command);
      switch (command.t) {
        case "BeginImport":
          return { t: "ImportUpload", uploadId: "upl_1", chunkBytes };
        case "UploadImportChunk":
          expect(command.offset).toBe(received);
          received += command.data.byteLength;
          return { t: "ImportChunkReceived", received };
        case "CheckImport":
          return { t: "ImportPreview", preview };
        default:
          throw new Error(`unexpected ${command.t}`);
      }
    },
  };
  return { client, sent };
}

describe("chunkRanges", () => {
  it("covers the file in order with pieces no larger than asked", () => {
    expect(chunkRanges(10, 4)).toEqual([
      { offset: 0, end: 4 },
      { offset: 4, end: 8 },
      { offset: 8, end: 10 },
    ]);
    expect(chunkRanges(8, 4)).toHaveLength(2);
    expect(chunkRanges(0, 4)).toEqual([]);
  });

  it("never exceeds 48 KiB, whatever the server offers", () => {
    const ranges = chunkRanges(200_000, 1_000_000);
    expect(ranges.every((range) => range.end - range.offset <= MAX_CHUNK_BYTES)).toBe(true);
    expect(ranges.at(-1)?.end).toBe(200_000);
  });
});

describe("uploadAndCheck", () => {
  it("opens an upload, sends every piece from offset 0 in order, then checks it", async () => {
    const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => i % 251);
    const { client, sent } = fakeServer(4096);
    const progress: number[] = [];
    let started = "";
    const result = await uploadAndCheck(client, fileOf(bytes), { kind: "once", template: "eft_debit_order" }, {
      onStarted: (id) => (started = id),
      onProgress: (received) => progress.push(received),
    });
    expect(result).toEqual(preview);
    expect(started).toBe("upl_1");
    expect(sent[0]).toEqual({ t: "BeginImport", kind: "once", template: "eft_debit_order", fileName: "june.csv", size: 10_000 });
    const chunks = sent.filter((command) => command.t === "UploadImportChunk");
    expect(chunks.map((chunk) => chunk.offset)).toEqual([0, 4096, 8192]);
    const joined = new Uint8Array(chunks.flatMap((chunk) => [...chunk.data]));
    expect(joined).toEqual(bytes);
    expect(progress).toEqual([0, 4096, 8192, 10_000]);
    expect(sent.at(-1)).toEqual({ t: "CheckImport", uploadId: "upl_1" });
  });

  it("stops sending once cancelled and checks nothing", async () => {
    const { client, sent } = fakeServer(1024);
    let pieces = 0;
    const result = await uploadAndCheck(client, fileOf(new Uint8Array(5000)), { kind: "recurring", template: "debicheck" }, {
      onProgress: () => (pieces += 1),
      cancelled: () => pieces > 2,
    });
    expect(result).toBeNull();
    expect(sent.filter((command) => command.t === "UploadImportChunk")).toHaveLength(2);
    expect(sent.some((command) => command.t === "CheckImport")).toBe(false);
  });
});
