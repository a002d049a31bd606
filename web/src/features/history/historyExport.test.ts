import { describe, expect, it } from "vitest";
import type { HistoryExportPiece, Query, ReplyBody } from "../../protocol/wire";
import type { Ask } from "../../live/ask";
import { fetchHistoryFile } from "./historyExport";

const bytes = (text: string) => new TextEncoder().encode(text);

function piece(text: string, nextCursor?: string, entries = 1): ReplyBody {
  const value: HistoryExportPiece = { fileName: "paydesk-history-test-2026-03-02.csv", contentType: "text/csv; charset=utf-8", data: bytes(text), entries, nextCursor };
  return { t: "HistoryExport", piece: value };
}

function serverOf(replies: Record<string, ReplyBody>) {
  const asked: Query[] = [];
  const ask: Ask = (query) => {
    asked.push(query);
    const cursor = query.t === "DownloadHistory" ? (query.cursor ?? "") : "?";
    const reply = replies[cursor];
    return reply ? Promise.resolve(reply) : Promise.reject(new Error(`no piece at ${cursor}`));
  };
  return { asked, ask };
}

describe("history export", () => {
  it("asks for every piece from the cursor the last one ended at, with the filter and language, and joins them", async () => {
    const server = serverOf({ "": piece("Entry,Time\r\nhst_3,a", "hst_3~5", 0), "hst_3~5": piece("bc\r\nhst_2,x\r\n", "hst_2", 2), hst_2: piece("hst_1,y\r\n", undefined, 1) });
    const filter = { person: "usr_1", action: "updated" as const };
    const file = await fetchHistoryFile(server.ask, filter, "afr");
    expect(await file.blob.text()).toBe("Entry,Time\r\nhst_3,abc\r\nhst_2,x\r\nhst_1,y\r\n");
    expect(file.fileName).toBe("paydesk-history-test-2026-03-02.csv");
    expect(file.entries).toBe(3);
    expect(server.asked).toEqual([
      { t: "DownloadHistory", filter, language: "afr", cursor: undefined },
      { t: "DownloadHistory", filter, language: "afr", cursor: "hst_3~5" },
      { t: "DownloadHistory", filter, language: "afr", cursor: "hst_2" },
    ]);
  });

  it("stops rather than asking for the same piece for ever, and on a reply that is no piece", async () => {
    await expect(fetchHistoryFile(serverOf({ "": piece("a", "hst_1"), hst_1: piece("b", "hst_1") }).ask, {}, "en")).rejects.toThrow(/do not advance/);
    await expect(fetchHistoryFile(serverOf({ "": { t: "Done" } }).ask, {}, "en")).rejects.toThrow(/unexpected reply Done/);
  });
});
