import { atom } from "jotai";
import { fetchSession, type SessionUser } from "./api";

export type AuthStatus = "loading" | "authenticated" | "unauthenticated";

export type SessionState = {
  status: AuthStatus;
  user: SessionUser | null;
  lastRefreshed: number | null;
  // Set when this tab signed out on purpose, so the guard does not ask to come back.
  signedOut: boolean;
};

export const sessionAtom = atom<SessionState>({ status: "loading", user: null, lastRefreshed: null, signedOut: false });

/** The session as the server sees it now, or null when the server could not be reached. */
export async function readSession(): Promise<SessionState | null> {
  try {
    const payload = await fetchSession();
    const user = payload.user ?? null;
    return { status: user ? "authenticated" : "unauthenticated", user, lastRefreshed: Date.now(), signedOut: false };
  } catch {
    return null;
  }
}

// A failed read keeps what we knew, except that the first read must settle somewhere.
export function nextSession(current: SessionState, read: SessionState | null): SessionState {
  if (read) return read;
  if (current.status === "loading") return { ...current, status: "unauthenticated", lastRefreshed: Date.now() };
  return current;
}
