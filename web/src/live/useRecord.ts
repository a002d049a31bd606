import { atom, useAtomValue, type PrimitiveAtom } from "jotai";
import { useEffect, useMemo, useState } from "react";
import { entityVersionAtom, topicVersionsAtom, type Topic } from "./cache";
import { useLiveClient } from "./context";
import { codeOf } from "./errors";
import type { ErrorCode, Query } from "../protocol/wire";

export type RecordView<T> = { state: "loading" } | { state: "ready"; record: T } | { state: "error"; code: ErrorCode };

/**
 * One record from the entity cache, asked for on open, after a resync and when the topic it
 * `follows` moves; deltas keep it current. `id` names the record (an empty one reads nothing).
 */
export function useRecord<T>(recordAtom: PrimitiveAtom<T | undefined>, query: Query, id: string, follows?: Topic): RecordView<T> {
  const client = useLiveClient();
  const record = useAtomValue(recordAtom);
  const version = useAtomValue(entityVersionAtom);
  // Only the followed topic's count: other topics moving do not draw the record again.
  const moved = useAtomValue(useMemo(() => atom((get) => (follows ? get(topicVersionsAtom)[follows] : 0)), [follows]));
  const key = `${id}\u0000${version}\u0000${moved}`;
  const [failure, setFailure] = useState<{ key: string; code: ErrorCode } | null>(null);
  const queryText = JSON.stringify(query);

  useEffect(() => {
    if (!id) return;
    let current = true;
    client.query(JSON.parse(queryText) as Query).catch((error: unknown) => {
      if (current) setFailure({ key, code: codeOf(error) });
    });
    return () => {
      current = false;
    };
  }, [client, id, key, queryText]);

  if (record) return { state: "ready", record };
  if (failure?.key === key) return { state: "error", code: failure.code };
  return { state: "loading" };
}
