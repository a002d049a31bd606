import { readAllPages, type Ask } from "../../live/ask";
import type { HistoryExportPiece, HistoryFilter, Language, ReplyBody } from "../../protocol/wire";

export type HistoryFile = { fileName: string; contentType: string; blob: Blob; entries: number };

const pieceOf = (reply: ReplyBody) => (reply.t === "HistoryExport" ? { items: [reply.piece], next: reply.piece.nextCursor } : undefined);

/**
 * The whole filtered history as the server writes it (every entry, with each field before and
 * after), asked for piece by piece from the cursor each piece ends at. The server writes the file
 * rather than this tab paging through the list: a long range is far more entries than a screen
 * holds, and each piece costs the server only its own rows. Here only the pieces are kept, and
 * their bytes become the file's parts, so the tab holds the file and no more.
 */
export async function fetchHistoryFile(ask: Ask, filter: HistoryFilter, language: Language): Promise<HistoryFile> {
  const { items: pieces } = await readAllPages<HistoryExportPiece, string | undefined>(ask, {
    from: undefined,
    query: (cursor) => ({ t: "DownloadHistory", filter, language, cursor }),
    page: pieceOf,
  });
  const [first] = pieces;
  if (!first) throw new Error("no history pieces");
  const blob = new Blob(pieces.map((piece) => piece.data as BlobPart), { type: first.contentType });
  const entries = pieces.reduce((sum, piece) => sum + piece.entries, 0);
  return { fileName: first.fileName, contentType: first.contentType, blob, entries };
}
