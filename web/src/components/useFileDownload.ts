import { useCallback, useState } from "react";
import { useAsk } from "../live/ask";
import { codeOf } from "../live/errors";
import type { ErrorCode, Query } from "../protocol/wire";
import { fetchFile, saveFile } from "./download";

export type FileDownload = { busy: boolean; error: ErrorCode | null; run: () => void };

/** A file the server makes (a template, the invalid rows), fetched in pieces and saved. */
export function useFileDownload(queryAt: (offset: number) => Query): FileDownload {
  const ask = useAsk();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorCode | null>(null);
  const run = useCallback(() => {
    setBusy(true);
    setError(null);
    fetchFile(ask, queryAt)
      .then(saveFile)
      .catch((failure: unknown) => setError(codeOf(failure)))
      .finally(() => setBusy(false));
  }, [ask, queryAt]);
  return { busy, error, run };
}
