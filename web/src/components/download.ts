import type { FileChunk, Query, ReplyBody } from "../protocol/wire";

type Querier = { query: (query: Query) => Promise<ReplyBody> };

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

/** Asks for a file piece by piece from offset 0 until the server says there is no more. */
export async function fetchFile(client: Querier, queryAt: (offset: number) => Query): Promise<DownloadedFile> {
  const chunks: FileChunk[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const body = await client.query(queryAt(offset));
    if (body.t !== "FileChunk") throw new Error(`unexpected reply ${body.t}`);
    chunks.push(body.chunk);
    const next: number | undefined = body.chunk.nextOffset;
    // A next offset that does not move on would ask for the same piece for ever.
    if (next !== undefined && next <= offset) throw new Error("file chunks do not advance");
    offset = next;
  }
  return joinChunks(chunks);
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
