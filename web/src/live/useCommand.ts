import { useCallback, useState } from "react";
import type { Command, ReplyBody, WireError } from "../protocol/wire";
import { LiveError } from "./client";
import { useLiveClient } from "./context";

export type CommandRunner = {
  busy: boolean;
  error: WireError | null;
  /** The reply, or null when the command failed (the error is then in `error`). */
  run: (command: Command) => Promise<ReplyBody | null>;
  clearError: () => void;
};

/** One command at a time for a form that shows its own errors (no global notice). */
export function useCommand(): CommandRunner {
  const client = useLiveClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<WireError | null>(null);
  const run = useCallback(
    async (command: Command) => {
      setBusy(true);
      setError(null);
      try {
        return await client.command(command, { announce: false });
      } catch (failure) {
        setError(failure instanceof LiveError ? failure.wire : { code: "internal" });
        return null;
      } finally {
        setBusy(false);
      }
    },
    [client],
  );
  const clearError = useCallback(() => setError(null), []);
  return { busy, error, run, clearError };
}
