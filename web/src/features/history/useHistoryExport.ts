import { useCallback, useRef, useState } from "react";
import { saveBlob } from "../../components/download";
import { useAsk } from "../../live/ask";
import { codeOf } from "../../live/errors";
import type { ErrorCode, HistoryFilter, Language } from "../../protocol/wire";
import { fetchHistoryFile } from "./historyExport";

export type HistoryExport = { busy: boolean; error: ErrorCode | null; run: () => void };

/** Exports every entry the filter matches, in the interface's language, and saves the file. */
export function useHistoryExport(filter: HistoryFilter, language: Language): HistoryExport {
  const ask = useAsk();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorCode | null>(null);
  // One export at a time: a second click while the pieces still arrive would only make the file twice.
  const running = useRef(false);
  const run = useCallback(() => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    fetchHistoryFile(ask, filter, language)
      .then((file) => saveBlob(file.blob, file.fileName))
      .catch((failure: unknown) => setError(codeOf(failure)))
      .finally(() => {
        running.current = false;
        setBusy(false);
      });
  }, [ask, filter, language]);
  return { busy, error, run };
}
