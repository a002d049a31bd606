import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { NavLink } from "../../components/placeLinks";
import { useAtomValue } from "jotai";
import { identityAtom } from "../../live/atoms";
import { can } from "../../live/permissions";
import { routeAt } from "../routes";
import { NAV } from "./nav";

export function Sidebar({ open, onNavigate }: { open: boolean; onNavigate: () => void }) {
  const { t } = useTranslation();
  const permissions = useAtomValue(identityAtom)?.merchant.permissions;
  // Home has two addresses, "/" and "/home": its link points at the one open, so it is marked
  // the current page (highlighted, and `aria-current`) at either.
  const atHome = useLocation().pathname === "/home";
  // What the member's role cannot read is left out (the server refuses it anyway).
  const groups = NAV.map(({ group, items }) => ({
    group,
    items: items.filter((item) => {
      const section = routeAt(item.path)?.section;
      return !section || can(permissions, section, "read");
    }),
  })).filter(({ items }) => items.length > 0);
  return (
    <nav className={open ? "sidebar sidebar-open" : "sidebar"} aria-label={t("nav.label")} id="sidebar">
      {groups.map(({ group, items }) => (
        <div className="nav-group" key={group}>
          <p className="nav-group-title">{t(`nav.groups.${group}`)}</p>
          <ul>
            {items.map((item) => (
              <li key={item.path}>
                <NavLink
                  to={atHome && item.path === "/" ? "/home" : item.path}
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
