import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { entityVersionAtom, transactionAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { ErrorCode, Transaction } from "../../protocol/wire";

export type TransactionState =
  | { state: "loading" }
  | { state: "ready"; transaction: Transaction }
  | { state: "error"; code: ErrorCode };

/** One transaction from the entity cache, fetched on open and after a resync; deltas keep it current. */
export function useTransaction(id: string): TransactionState {
  const client = useLiveClient();
  const transaction = useAtomValue(transactionAtom(id));
  const version = useAtomValue(entityVersionAtom);
  const key = `${id}\u0000${version}`;
  const [failure, setFailure] = useState<{ key: string; code: ErrorCode } | null>(null);

  useEffect(() => {
    let current = true;
    client.query({ t: "GetTransaction", transactionId: id }).catch((error: unknown) => {
      if (current) setFailure({ key, code: error instanceof LiveError ? error.wire.code : "internal" });
    });
    return () => {
      current = false;
    };
  }, [client, id, key]);

  if (transaction) return { state: "ready", transaction };
  if (failure?.key === key) return { state: "error", code: failure.code };
  return { state: "loading" };
}
