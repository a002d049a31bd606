import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import { Link } from "../../components/placeLinks";
import { LanguageSwitch } from "../shell/LanguageSwitch";
import { Logo } from "../shell/Logo";
import { ThemeSwitch } from "../shell/ThemeSwitch";

export function AuthLayout() {
  const { t } = useTranslation();
  return (
    <div className="auth-shell">
      <div className="auth-top">
        <Link to="/" className="brand">
          <Logo />
          <span className="brand-name">{t("app.name")}</span>
        </Link>
        <div className="auth-tools">
          <LanguageSwitch />
          <ThemeSwitch />
        </div>
      </div>
      <main className="auth-main">
        <Outlet />
        <p className="auth-tagline">{t("app.tagline")}</p>
      </main>
    </div>
  );
}
