import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { customerAtom, entityVersionAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { Customer, ErrorCode } from "../../protocol/wire";

export type CustomerView =
  | { state: "loading" }
  | { state: "ready"; customer: Customer }
  | { state: "error"; code: ErrorCode };

/** One customer from the entity cache, fetched on open and after a resync; deltas keep it current. */
export function useCustomer(id: string): CustomerView {
  const client = useLiveClient();
  const customer = useAtomValue(customerAtom(id));
  const version = useAtomValue(entityVersionAtom);
  const key = `${id}\u0000${version}`;
  const [failure, setFailure] = useState<{ key: string; code: ErrorCode } | null>(null);

  useEffect(() => {
    let current = true;
    client.query({ t: "GetCustomer", customerId: id }).catch((error: unknown) => {
      if (current) setFailure({ key, code: error instanceof LiveError ? error.wire.code : "internal" });
    });
    return () => {
      current = false;
    };
  }, [client, id, key]);

  if (customer) return { state: "ready", customer };
  if (failure?.key === key) return { state: "error", code: failure.code };
  return { state: "loading" };
}
