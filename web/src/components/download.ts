import { readAllPages, type Ask } from "../live/ask";
import type { FileChunk, Query, ReplyBody } from "../protocol/wire";

export type DownloadedFile = { fileName: string; contentType: string; data: Uint8Array };

/** The pieces of one file, in order, as one run of bytes. */
export function joinChunks(chunks: FileChunk[]): DownloadedFile {
  const first = chunks[0];
  if (!first) throw new Error("no file chunks");
  const length = chunks.reduce((sum, chunk) => sum + chunk.data.byteLength, 0);
  const data = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    data.set(chunk.data, at);
    at += chunk.data.byteLength;
  }
  return { fileName: first.fileName, contentType: first.contentType, data };
}

const chunkOf = (reply: ReplyBody) => (reply.t === "FileChunk" ? { items: [reply.chunk], next: reply.chunk.nextOffset } : undefined);

/** Asks for a file piece by piece from offset 0 until the server says there is no more. */
export async function fetchFile(ask: Ask, queryAt: (offset: number) => Query): Promise<DownloadedFile> {
  const { items } = await readAllPages<FileChunk, number>(ask, { from: 0, query: queryAt, page: chunkOf });
  return joinChunks(items);
}

/** Hands the bytes to the browser as a file download. */
export function saveFile(file: DownloadedFile): void {
  saveBlob(new Blob([file.data as BlobPart], { type: file.contentType }), file.fileName);
}

/** Hands a file already in the browser's keeping to the user as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
