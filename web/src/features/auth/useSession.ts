import { useAtom } from "jotai";
import { useCallback } from "react";
import { currentLanguage, languageFromCookie, setLanguage } from "../../app/i18n";
import { nextSession, readSession, sessionAtom } from "./session";

export function useRefreshSession(): () => Promise<void> {
  const [, setSession] = useAtom(sessionAtom);
  return useCallback(async () => {
    const read = await readSession();
    // Signing in on a browser that never chose a language sets the cookie to the
    // language the user saved: the words switch before the first signed-in screen.
    const saved = typeof document === "undefined" ? undefined : languageFromCookie(document.cookie);
    if (saved && saved !== currentLanguage()) await setLanguage(saved);
    setSession((current) => nextSession(current, read));
  }, [setSession]);
}
