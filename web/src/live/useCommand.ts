import { useCallback, useState } from "react";
import type { Command, ReplyBody, WireError } from "../protocol/wire";
import { LiveError } from "./client";
import { useLiveClient } from "./context";

export type CommandRunner = {
  busy: boolean;
  error: WireError | null;
  /** The reply, or null when the command failed (the error is then in `error`). */
  run: (command: Command) => Promise<ReplyBody | null>;
  /** Like `run`, answering with the error too: a form that acts on a refusal (a conflict) at once. */
  attempt: (command: Command) => Promise<{ ok: ReplyBody } | { error: WireError }>;
  clearError: () => void;
};

/** One command at a time for a form that shows its own errors (no global notice). */
export function useCommand(): CommandRunner {
  const client = useLiveClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<WireError | null>(null);
  const attempt = useCallback(
    async (command: Command): Promise<{ ok: ReplyBody } | { error: WireError }> => {
      setBusy(true);
      setError(null);
      try {
        return { ok: await client.command(command, { announce: false }) };
      } catch (failure) {
        const wire: WireError = failure instanceof LiveError ? failure.wire : { code: "internal" };
        setError(wire);
        return { error: wire };
      } finally {
        setBusy(false);
      }
    },
    [client],
  );
  const run = useCallback(async (command: Command) => {
    const outcome = await attempt(command);
    return "ok" in outcome ? outcome.ok : null;
  }, [attempt]);
  const clearError = useCallback(() => setError(null), []);
  return { busy, error, run, attempt, clearError };
}
