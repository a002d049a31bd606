import { Provider as JotaiProvider } from "jotai";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { LiveClientContext } from "../live/context";
import { initI18n } from "./i18n";
import { liveClient } from "./liveClient";
import { store } from "./store";

const i18n = initI18n();

export function Providers({ children }: { children: ReactNode }) {
  return (
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <LiveClientContext.Provider value={liveClient}>{children}</LiveClientContext.Provider>
      </I18nextProvider>
    </JotaiProvider>
  );
}
