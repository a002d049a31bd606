import type { Command, ImportPreview, ImportTemplate, PaymentKind, ReplyBody } from "../../protocol/wire";

// Well under the 64 KiB frame with the command around it, whatever the server offers.
export const MAX_CHUNK_BYTES = 48 * 1024;

export type ChunkRange = { offset: number; end: number };

/** The pieces of a file of `size` bytes, in order, each at most `chunkBytes` long. */
export function chunkRanges(size: number, chunkBytes: number): ChunkRange[] {
  const step = Math.max(1, Math.min(chunkBytes, MAX_CHUNK_BYTES));
  const ranges: ChunkRange[] = [];
  for (let offset = 0; offset < size; offset += step) ranges.push({ offset, end: Math.min(size, offset + step) });
  return ranges;
}

export type UploadSource = { name: string; size: number; slice: (start: number, end: number) => { arrayBuffer: () => Promise<ArrayBuffer> } };

export type UploadRequest = { kind: PaymentKind; template: ImportTemplate };

type Commander = { command: (command: Command, options: { announce?: boolean }) => Promise<ReplyBody> };

export class UnexpectedReply extends Error {
  constructor(readonly body: ReplyBody) {
    super(`unexpected reply ${body.t}`);
  }
}

function replyOf<T extends ReplyBody["t"]>(body: ReplyBody, t: T): Extract<ReplyBody, { t: T }> {
  if (body.t !== t) throw new UnexpectedReply(body);
  return body as Extract<ReplyBody, { t: T }>;
}

export type UploadHandlers = {
  /** Told the upload's id as soon as the server opened it, so it can be discarded. */
  onStarted?: (uploadId: string) => void;
  /** Bytes the server confirmed so far. */
  onProgress?: (received: number, total: number) => void;
  /** True once the person gave up: no further piece is sent. */
  cancelled?: () => boolean;
};

/**
 * Sends a file in pieces, one at a time (each waits for the server's receipt, so a slow link
 * never queues more than one frame), then asks the server to check it.
 */
export async function uploadAndCheck(client: Commander, file: UploadSource, request: UploadRequest, handlers: UploadHandlers = {}): Promise<ImportPreview | null> {
  const quiet = { announce: false };
  const begun = replyOf(await client.command({ t: "BeginImport", ...request, fileName: file.name, size: file.size }, quiet), "ImportUpload");
  handlers.onStarted?.(begun.uploadId);
  handlers.onProgress?.(0, file.size);
  for (const { offset, end } of chunkRanges(file.size, begun.chunkBytes)) {
    if (handlers.cancelled?.()) return null;
    const data = new Uint8Array(await file.slice(offset, end).arrayBuffer());
    const receipt = replyOf(await client.command({ t: "UploadImportChunk", uploadId: begun.uploadId, offset, data }, quiet), "ImportChunkReceived");
    handlers.onProgress?.(receipt.received, file.size);
  }
  if (handlers.cancelled?.()) return null;
  return replyOf(await client.command({ t: "CheckImport", uploadId: begun.uploadId }, quiet), "ImportPreview").preview;
}
