import { useAtomValue, type PrimitiveAtom } from "jotai";
import { useEffect, useState } from "react";
import { entityVersionAtom } from "./cache";
import { useLiveClient } from "./context";
import { codeOf } from "./errors";
import type { ErrorCode, Query } from "../protocol/wire";

export type RecordView<T> = { state: "loading" } | { state: "ready"; record: T } | { state: "error"; code: ErrorCode };

/** One record from the entity cache, asked for on open and after a resync; deltas keep it current. */
export function useRecord<T>(atom: PrimitiveAtom<T | undefined>, query: Query, id: string): RecordView<T> {
  const client = useLiveClient();
  const record = useAtomValue(atom);
  const version = useAtomValue(entityVersionAtom);
  const key = `${id}\u0000${version}`;
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
