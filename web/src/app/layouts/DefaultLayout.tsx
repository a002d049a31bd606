import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { TwoFactorGate } from "../../features/profile/TwoFactorGate";
import { TestModeStrip } from "../../features/testclock/TestModeStrip";
import { VerifyEmailBanner } from "../../features/profile/VerifyEmailBanner";
import { connectionAtom } from "../../live/atoms";
import { liveClient } from "../liveClient";
import { AccessNotice } from "../shell/AccessNotice";
import { PlaceOutlet } from "../PlaceSync";
import { Header } from "../shell/Header";
import { NoTeam } from "../shell/NoTeam";
import { Notice } from "../shell/Notice";
import { Sidebar } from "../shell/Sidebar";

export function DefaultLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [navOpen, setNavOpen] = useState(false);
  const noTeam = useAtomValue(connectionAtom) === "noTeam";

  // Tell teammates which screen this tab shows (lists too: they show who else is on it).
  useEffect(() => {
    liveClient.setViewing(pathname);
  }, [pathname]);
  useEffect(() => () => liveClient.setViewing(undefined), []);

  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        {t("app.skipToContent")}
      </a>
      <Header navOpen={navOpen} onToggleNav={() => setNavOpen((open) => !open)} />
      <TestModeStrip />
      <div className="shell-body">
        <Sidebar open={navOpen} onNavigate={() => setNavOpen(false)} />
        {navOpen ? <div className="sidebar-backdrop" onClick={() => setNavOpen(false)} aria-hidden="true" /> : null}
        <main id="main" className="main">
          {noTeam ? (
            <NoTeam />
          ) : (
            <>
              <AccessNotice />
              <VerifyEmailBanner />
              <TwoFactorGate>
                <PlaceOutlet />
              </TwoFactorGate>
            </>
          )}
        </main>
      </div>
      <Notice />
    </div>
  );
}
