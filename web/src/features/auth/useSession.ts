import { useAtom } from "jotai";
import { useCallback } from "react";
import { nextSession, readSession, sessionAtom } from "./session";

export function useRefreshSession(): () => Promise<void> {
  const [, setSession] = useAtom(sessionAtom);
  return useCallback(async () => {
    const read = await readSession();
    setSession((current) => nextSession(current, read));
  }, [setSession]);
}
