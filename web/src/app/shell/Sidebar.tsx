import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { NAV } from "./nav";

export function Sidebar({ open, onNavigate }: { open: boolean; onNavigate: () => void }) {
  const { t } = useTranslation();
  return (
    <nav className={open ? "sidebar sidebar-open" : "sidebar"} aria-label={t("nav.label")} id="sidebar">
      {NAV.map(({ group, items }) => (
        <div className="nav-group" key={group}>
          <p className="nav-group-title">{t(`nav.groups.${group}`)}</p>
          <ul>
            {items.map((item) => (
              <li key={item.path}>
                <NavLink
                  to={item.path}
                  end={item.path === "/"}
                  className={({ isActive }) => (isActive ? "nav-link nav-link-active" : "nav-link")}
                  onClick={onNavigate}
                >
                  {t(`screens.${item.screen}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
