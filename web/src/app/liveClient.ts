import { nextSession, readSession, sessionAtom } from "../features/auth/session";
import { LiveClient } from "../live/client";
import { reloadForBuild } from "./build";
import { store } from "./store";

function socketUrl(): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

// One socket client per tab, writing into the app's one store.
export const liveClient = new LiveClient({
  store,
  build: __BUILD_ID__,
  url: socketUrl(),
  onSignedOut: () => {
    // The server closed the socket because the session ended: the guard then shows the sign-in page.
    void readSession().then((read) => store.set(sessionAtom, (current) => nextSession(current, read)));
  },
  onBuildMismatch: (serverBuild) => {
    if (!import.meta.env.DEV) reloadForBuild(serverBuild);
  },
});
