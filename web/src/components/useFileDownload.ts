import { useCallback, useState } from "react";
import { LiveError } from "../live/client";
import { useLiveClient } from "../live/context";
import type { ErrorCode, Query } from "../protocol/wire";
import { fetchFile, saveFile } from "./download";

export type FileDownload = { busy: boolean; error: ErrorCode | null; run: () => void };

/** A file the server makes (a template, the invalid rows), fetched in pieces and saved. */
export function useFileDownload(queryAt: (offset: number) => Query): FileDownload {
  const client = useLiveClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorCode | null>(null);
  const run = useCallback(() => {
    setBusy(true);
    setError(null);
    fetchFile(client, queryAt)
      .then(saveFile)
      .catch((failure: unknown) => setError(failure instanceof LiveError ? failure.wire.code : "internal"))
      .finally(() => setBusy(false));
  }, [client, queryAt]);
  return { busy, error, run };
}
