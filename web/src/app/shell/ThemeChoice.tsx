import { useAtom } from "jotai";
import { useTranslation } from "react-i18next";
import { themePreferenceAtom, type ThemePreference } from "../theme";

const PREFERENCES: ThemePreference[] = ["light", "dark", "system"];

/** The colour-mode setting as a segmented control, for settings screens. */
export function ThemeChoice() {
  const { t } = useTranslation();
  const [preference, setPreference] = useAtom(themePreferenceAtom);
  return (
    <div className="segmented" role="radiogroup" aria-label={t("header.theme.label")} data-testid="theme-choice">
      {PREFERENCES.map((value) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={preference === value}
          className={preference === value ? "segment segment-on" : "segment"}
          onClick={() => setPreference(value)}
          data-testid={`theme-choice-${value}`}
        >
          {t(`header.theme.${value}`)}
        </button>
      ))}
    </div>
  );
}
