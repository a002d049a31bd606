import { nextSession, readSession, sessionAtom } from "../features/auth/session";
import { identityAtom } from "../live/atoms";
import { LiveClient } from "../live/client";
import { reloadForBuild } from "./build";
import { rememberedPlace, rememberPlace } from "./placeMemory";
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

function tabStorage(): Storage | undefined {
  return typeof sessionStorage === "undefined" ? undefined : sessionStorage;
}

// An address that names no business or mode opens where this tab last was; one that does
// overrides it (app/PlaceSync.tsx).
liveClient.switchTo(rememberedPlace(tabStorage()));
store.sub(identityAtom, () => {
  const identity = store.get(identityAtom);
  if (identity) rememberPlace(tabStorage(), { merchantId: identity.merchant.id, mode: identity.mode });
});
