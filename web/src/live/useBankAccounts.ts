import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { bankAccountChangesAtom, bankAccountsAtom, entityVersionAtom, topicVersionsAtom, putBankAccounts } from "./cache";
import { useLiveClient } from "./context";
import { codeOf } from "./errors";
import type { BankAccount, ErrorCode } from "../protocol/wire";

const MAX_ASKS = 3;

export type BankAccountsView =
  | { state: "loading" }
  | { state: "ready"; accounts: BankAccount[]; refreshing: boolean }
  | { state: "error"; code: ErrorCode };

/**
 * A customer's bank accounts, fetched on open, on Invalidate and after a resync; deltas keep
 * them current. One read for every screen that shows them (the customer, a new mandate's
 * account picker, a payout to a customer).
 */
export function useBankAccounts(customerId: string): BankAccountsView {
  const client = useLiveClient();
  const accounts = useAtomValue(bankAccountsAtom(customerId));
  const listVersion = useAtomValue(topicVersionsAtom).bank_account;
  const entityVersion = useAtomValue(entityVersionAtom);
  const key = `${customerId}\u0000${listVersion}\u0000${entityVersion}`;
  const [settled, setSettled] = useState<{ key: string; code?: ErrorCode } | null>(null);

  useEffect(() => {
    let current = true;
    const ask = (attempt: number) => {
      const changes = client.store.get(bankAccountChangesAtom(customerId));
      client.query({ t: "ListBankAccounts", customerId }).then(
        (body) => {
          if (!current || body.t !== "BankAccounts") return;
          // An account added or removed while the answer was on its way may be missing from it.
          if (client.store.get(bankAccountChangesAtom(customerId)) !== changes && attempt < MAX_ASKS) return ask(attempt + 1);
          putBankAccounts(client.store, customerId, body.accounts);
          setSettled({ key });
        },
        (error: unknown) => {
          if (current) setSettled({ key, code: codeOf(error) });
        },
      );
    };
    ask(1);
    return () => {
      current = false;
    };
  }, [client, customerId, key]);

  if (settled?.key === key && settled.code) return { state: "error", code: settled.code };
  if (accounts) return { state: "ready", accounts, refreshing: settled?.key !== key };
  return { state: "loading" };
}
