import { nextSession, readSession, sessionAtom } from "../features/auth/session";
import { LiveClient } from "../live/client";
import { reloadForBuild } from "./build";
import { store } from "./store";

function socketUrl(): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

function recheckSession(): void {
  void readSession().then((read) => store.set(sessionAtom, (current) => nextSession(current, read)));
}

// One socket client per tab, writing into the app's one store.
export const liveClient = new LiveClient({
  store,
  build: __BUILD_ID__,
  url: socketUrl(),
  // The server closed the socket because the session ended, or keeps refusing it:
  // if the session is gone, the guard shows the sign-in page and the socket stops.
  onSignedOut: recheckSession,
  onRetry: recheckSession,
  onBuildMismatch: (serverBuild) => {
    if (!import.meta.env.DEV) reloadForBuild(serverBuild);
  },
});
