import { describe, expect, it } from "vitest";
import type { FileChunk, Query, ReplyBody } from "../protocol/wire";
import { fetchFile, joinChunks } from "./download";

const text = new TextEncoder();

function chunk(data: string, total: number, nextOffset?: number): FileChunk {
  return { fileName: "invalid-rows.xlsx", contentType: "application/vnd.ms-excel", data: text.encode(data), total, nextOffset };
}

describe("joinChunks", () => {
  it("joins the pieces in order and keeps the first piece's name and type", () => {
    const file = joinChunks([chunk("ab", 5, 2), chunk("cde", 5)]);
    expect(new TextDecoder().decode(file.data)).toBe("abcde");
    expect(file.fileName).toBe("invalid-rows.xlsx");
    expect(file.contentType).toBe("application/vnd.ms-excel");
  });

  it("refuses an empty list", () => {
    expect(() => joinChunks([])).toThrow();
  });
});

describe("fetchFile", () => {
  it("asks from offset 0 and then from each next offset until there is none", async () => {
    const asked: number[] = [];
    const pieces: Record<number, FileChunk> = { 0: chunk("Row,", 9, 4), 4: chunk("Col", 9, 7), 7: chunk("\n\n", 9) };
    const ask = async (query: Query): Promise<ReplyBody> => {
      if (query.t !== "DownloadImportIssues") throw new Error("wrong query");
      asked.push(query.offset);
      return { t: "FileChunk", chunk: pieces[query.offset] };
    };
    const file = await fetchFile(ask, (offset) => ({ t: "DownloadImportIssues", id: "imp_1", offset }));
    expect(asked).toEqual([0, 4, 7]);
    expect(new TextDecoder().decode(file.data)).toBe("Row,Col\n\n");
  });

  it("gives up on a next offset that does not move on", async () => {
    const ask = async (): Promise<ReplyBody> => ({ t: "FileChunk", chunk: chunk("x", 2, 0) });
    await expect(fetchFile(ask, (offset) => ({ t: "DownloadImportTemplate", template: "debicheck", kind: "once", offset }))).rejects.toThrow();
  });
});
