import { useCallback, useEffect, useState } from "react";
import { useBusinessToday } from "../../live/useBusinessToday";
import { useCommand } from "../../live/useCommand";
import type { ClockStep, WireError } from "../../protocol/wire";
import { clockTarget, hasReached } from "./clockTarget";

// The server plays a few days a second; this long without a day means the span is over
// (or the server stopped short of the date we expected), so the buttons come back.
const QUIET_MS = 10_000;

export type TestClock = {
  today?: string;
  /** The date a span is playing out to, while it plays. */
  playingTo?: string;
  busy: boolean;
  error: WireError | null;
  advance: (step: ClockStep) => void;
};

/** The merchant's test clock: its business date, and one span played out at a time. */
export function useTestClock(): TestClock {
  const today = useBusinessToday();
  const command = useCommand();
  const [target, setTarget] = useState<string | undefined>(undefined);

  const playing = target !== undefined && !hasReached(today, target);

  // Each day that arrives restarts the wait; a quiet stretch ends the span.
  useEffect(() => {
    if (!playing) return;
    const timer = setTimeout(() => setTarget(undefined), QUIET_MS);
    return () => clearTimeout(timer);
  }, [playing, today]);

  const { run } = command;
  const advance = useCallback(
    (step: ClockStep) => {
      if (!today) return;
      const next = clockTarget(today, step);
      void run({ t: "AdvanceTestClock", step }).then((reply) => {
        if (reply) setTarget(next);
      });
    },
    [run, today],
  );

  return { today, playingTo: playing ? target : undefined, busy: command.busy || playing, error: command.error, advance };
}
