import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { bankAccountsAtom, putBankAccounts } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { BankAccount, ErrorCode } from "../../protocol/wire";

export type AccountsView = { state: "loading" } | { state: "ready"; accounts: BankAccount[] } | { state: "error"; code: ErrorCode };

/** The bank accounts a new mandate may draw on; deltas keep the list current. */
export function useCustomerBankAccounts(customerId: string): AccountsView {
  const client = useLiveClient();
  const accounts = useAtomValue(bankAccountsAtom(customerId));
  const [failure, setFailure] = useState<{ customerId: string; code: ErrorCode } | null>(null);

  useEffect(() => {
    let current = true;
    client.query({ t: "ListBankAccounts", customerId }).then(
      (body) => {
        if (current && body.t === "BankAccounts") putBankAccounts(client.store, customerId, body.accounts);
      },
      (error: unknown) => {
        if (current) setFailure({ customerId, code: error instanceof LiveError ? error.wire.code : "internal" });
      },
    );
    return () => {
      current = false;
    };
  }, [client, customerId]);

  if (accounts) return { state: "ready", accounts };
  if (failure?.customerId === customerId) return { state: "error", code: failure.code };
  return { state: "loading" };
}
