import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Badge } from "../../components/Badge";
import { SearchBox } from "../../features/search/SearchBox";
import { identityAtom } from "../../live/atoms";
import { useLiveClient } from "../../live/context";
import { ConnectionIndicator } from "./ConnectionIndicator";
import { LanguageSwitch } from "./LanguageSwitch";
import { Logo } from "./Logo";
import { ModeSwitch } from "./ModeSwitch";
import { PresenceAvatars } from "./PresenceAvatars";
import { ThemeSwitch } from "./ThemeSwitch";
import { UserMenu } from "./UserMenu";

export function Header({ navOpen, onToggleNav }: { navOpen: boolean; onToggleNav: () => void }) {
  const { t } = useTranslation();
  const identity = useAtomValue(identityAtom);
  const client = useLiveClient();
  return (
    <header className={identity?.mode === "test" ? "header header-test" : "header"}>
      <button
        type="button"
        className="header-button nav-toggle"
        aria-label={navOpen ? t("nav.close") : t("nav.open")}
        aria-expanded={navOpen}
        aria-controls="sidebar"
        onClick={onToggleNav}
      >
        <svg viewBox="0 0 24 24" className="icon" aria-hidden="true">
          <path d="M4 6h16M4 12h16M4 18h16" />
        </svg>
      </button>
      <Link to="/" className="brand">
        <Logo />
        <span className="brand-name">{t("app.name")}</span>
      </Link>
      {identity ? (
        <div className="merchant" data-testid="merchant-name">
          <span className="merchant-name">{identity.merchant.name}</span>
          {identity.mode === "test" ? <Badge tone="amber">{t("header.mode.testBadge")}</Badge> : null}
        </div>
      ) : null}
      <div className="header-spacer" />
      {identity ? <SearchBox /> : null}
      <ModeSwitch />
      <PresenceAvatars />
      <ConnectionIndicator />
      {/* Signed in, the choice is the user's: their e-mails follow it, and so does a new browser they sign in on. A failure is announced. */}
      <LanguageSwitch onChosen={(language) => void client.command({ t: "SetLanguage", language }).catch(() => undefined)} />
      <ThemeSwitch />
      <UserMenu />
    </header>
  );
}
