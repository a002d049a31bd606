import { useTranslation } from "react-i18next";
import { currentLanguage, LANGUAGES, setLanguage, type Language } from "../i18n";
import { Menu, MenuChoice } from "./Menu";

/** The language menu; `onChosen` also keeps the choice beyond this browser (the signed-in user's profile). */
export function LanguageSwitch({ onChosen }: { onChosen?: (language: Language) => void }) {
  const { t, i18n } = useTranslation();
  const language = LANGUAGES.find((value) => value === i18n.language) ?? currentLanguage();
  return (
    <Menu
      // The name starts with what the button shows ("EN"), so a voice user can say it.
      label={t("header.languageButton", { short: t(`languages.short.${language}`) })}
      testId="language-switch"
      trigger={<span className="header-button-text">{t(`languages.short.${language}`)}</span>}
    >
      <MenuChoice<Language>
        label={t("header.language")}
        value={language}
        onChange={(next) => {
          void setLanguage(next);
          onChosen?.(next);
        }}
        options={LANGUAGES.map((value) => ({ value, label: t(`languages.${value}`), testId: `language-${value}` }))}
      />
    </Menu>
  );
}
