import type { HistoryExportPiece, HistoryFilter, Language, Query, ReplyBody } from "../../protocol/wire";

type Querier = { query: (query: Query) => Promise<ReplyBody> };

export type HistoryFile = { fileName: string; contentType: string; blob: Blob; entries: number };

/**
 * The whole filtered history as the server writes it (every entry, with each field before and
 * after), asked for piece by piece from the cursor each piece ends at. The server writes the file
 * rather than this tab paging through the list: a long range is far more entries than a screen
 * holds, and each piece costs the server only its own rows. Here each piece's bytes go straight
 * into the file's parts and nothing else is kept, so the tab holds the file and no more.
 */
export async function fetchHistoryFile(client: Querier, filter: HistoryFilter, language: Language): Promise<HistoryFile> {
  const parts: BlobPart[] = [];
  let first: HistoryExportPiece | undefined;
  let entries = 0;
  let cursor: string | undefined;
  do {
    const body = await client.query({ t: "DownloadHistory", filter, language, cursor });
    if (body.t !== "HistoryExport") throw new Error(`unexpected reply ${body.t}`);
    const { piece } = body;
    first ??= piece;
    parts.push(piece.data as BlobPart);
    entries += piece.entries;
    // A cursor that does not move on would ask for the same piece for ever.
    if (piece.nextCursor !== undefined && piece.nextCursor === cursor) throw new Error("history pieces do not advance");
    cursor = piece.nextCursor;
  } while (cursor !== undefined);
  if (!first) throw new Error("no history pieces");
  return { fileName: first.fileName, contentType: first.contentType, blob: new Blob(parts, { type: first.contentType }), entries };
}
