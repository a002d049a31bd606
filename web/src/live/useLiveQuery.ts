import { useAtomValue, useStore } from "jotai";
import { useEffect, useRef } from "react";
import type { ErrorCode, Query, ReplyBody } from "../protocol/wire";
import type { Ask } from "./ask";
import { entityVersionAtom, queryAnswerAtom, topicVersionsAtom, type Topic } from "./cache";
import { useLiveClient } from "./context";
import { readCodeOf } from "./errors";
import { pacer } from "./pacer";

export type LiveView<T> = (
  | { state: "loading" }
  | { state: "ready"; value: T }
  | { state: "error"; code: ErrorCode }
) & {
  /** Ask again now (a "Try again" button); paced like a change. */
  retry: () => void;
};

export type LiveQueryOptions<T> = {
  /** The part of the reply the screen shows; undefined when the reply is of another kind. */
  pick: (reply: ReplyBody) => T | undefined;
  /** What makes the answer out of date; a resync or a switch of business or mode always does. */
  follows: readonly Topic[];
};

export type LiveReadOptions = {
  /** What makes the answer out of date; a resync or a switch of business or mode always does. */
  follows: readonly Topic[];
};

// A burst (a test-clock month, an import) asks again at most this often per read.
const FOLLOW_GAP_MS = 250;

/**
 * A read that follows the socket: asked once on open, kept in the shared answers (so a screen
 * opened again shows it at once), asked again at once when a topic it follows moves, and
 * forgotten with everything else on a resync or a switch of business or mode. `null` reads
 * nothing. Keep `pick` stable (module level): it is not a reason to ask again.
 */
export function useLiveQuery<T>(query: Query | null, { pick, follows }: LiveQueryOptions<T>): LiveView<T> {
  const read = (ask: Ask) => (query ? ask(query).then(pick) : Promise.resolve(undefined));
  return useFollowedAnswer(query ? JSON.stringify(query) : null, read, follows);
}

/**
 * A read of several answers that follows the socket as `useLiveQuery` does: every page of a
 * statement, say. `key` names what `read` reads and must change whenever it would read
 * something else; `read` itself is not a reason to ask again. `null` reads nothing.
 */
export function useLiveRead<T>(key: string | null, read: (ask: Ask) => Promise<T | undefined>, { follows }: LiveReadOptions): LiveView<T> {
  // Kept apart from the single queries' answers, whose keys are the queries themselves.
  return useFollowedAnswer(key === null ? null : `read\u0000${key}`, read, follows);
}

function useFollowedAnswer<T>(key: string | null, read: (ask: Ask) => Promise<T | undefined>, follows: readonly Topic[]): LiveView<T> {
  const client = useLiveClient();
  const store = useStore();
  const entities = useAtomValue(entityVersionAtom);
  const versions = useAtomValue(topicVersionsAtom);
  const stamp = follows.map((topic) => versions[topic]).join(",");
  const answer = useAtomValue(queryAnswerAtom(`${entities}\u0000${key ?? ""}`));
  const readRef = useRef(read);
  useEffect(() => {
    readRef.current = read;
  });

  // One pacer per read and data version: its answers land in the shared answers.
  const pace = useRef<ReturnType<typeof pacer> | null>(null);
  useEffect(() => {
    if (key === null) return;
    const slot = queryAnswerAtom(`${entities}\u0000${key}`);
    const ask: Ask = (query) => client.query(query);
    let current = true;
    const once = () =>
      readRef.current(ask).then(
        (value) => {
          if (current) store.set(slot, value === undefined ? { error: "internal" } : { value });
        },
        (error: unknown) => {
          // A failed refresh keeps the answer on screen; only a first read shows the error.
          if (current) store.set(slot, (known) => (known?.value !== undefined ? known : { error: readCodeOf(error) }));
        },
      );
    const own = pacer(once, FOLLOW_GAP_MS);
    pace.current = own;
    own.changed();
    return () => {
      current = false;
      own.stop();
    };
  }, [client, store, key, entities]);

  const handled = useRef(stamp);
  useEffect(() => {
    if (handled.current === stamp) return;
    handled.current = stamp;
    pace.current?.changed();
  }, [stamp]);

  const retry = () => pace.current?.changed();
  if (key === null || !answer) return { state: "loading", retry };
  if (answer.value !== undefined) return { state: "ready", value: answer.value as T, retry };
  return { state: "error", code: answer.error ?? "internal", retry };
}
