import { Provider as JotaiProvider } from "jotai";
import type { ReactNode } from "react";
import type { i18n as I18n } from "i18next";
import { I18nextProvider } from "react-i18next";
import { LiveClientContext } from "../live/context";
import { liveClient } from "./liveClient";
import { store } from "./store";

export function Providers({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return (
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <LiveClientContext.Provider value={liveClient}>{children}</LiveClientContext.Provider>
      </I18nextProvider>
    </JotaiProvider>
  );
}
