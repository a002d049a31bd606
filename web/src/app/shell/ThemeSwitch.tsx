import { useAtom } from "jotai";
import { useTranslation } from "react-i18next";
import { themePreferenceAtom, type ThemePreference } from "../theme";
import { Menu, MenuChoice } from "./Menu";

const PREFERENCES: ThemePreference[] = ["light", "dark", "system"];

function ThemeIcon({ preference }: { preference: ThemePreference }) {
  if (preference === "dark") {
    return (
      <svg viewBox="0 0 24 24" className="icon" aria-hidden="true">
        <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
      </svg>
    );
  }
  if (preference === "light") {
    return (
      <svg viewBox="0 0 24 24" className="icon" aria-hidden="true">
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </svg>
    );
  }
  return (
    <svg viewBox="0 0 24 24" className="icon" aria-hidden="true">
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </svg>
  );
}

export function ThemeSwitch() {
  const { t } = useTranslation();
  const [preference, setPreference] = useAtom(themePreferenceAtom);
  return (
    <Menu label={t("header.theme.label")} testId="theme-switch" trigger={<ThemeIcon preference={preference} />}>
      <MenuChoice<ThemePreference>
        label={t("header.theme.label")}
        value={preference}
        onChange={setPreference}
        options={PREFERENCES.map((value) => ({ value, label: t(`header.theme.${value}`), testId: `theme-${value}` }))}
      />
    </Menu>
  );
}
