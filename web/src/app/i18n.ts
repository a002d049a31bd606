import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import afr from "../../../locales/afr.json";
import en from "../../../locales/en.json";

export type Language = "en" | "afr";

export const LANGUAGES: Language[] = ["en", "afr"];

const COOKIE = "locale";

export function languageFromBrowser(languages: readonly string[]): Language {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split("-")[0];
    if (primary === "af" || primary === "afr") return "afr";
    if (primary === "en") return "en";
  }
  return "en";
}

export function languageFromCookie(cookie: string): Language | undefined {
  const match = cookie.split(/;\s*/).find((part) => part.startsWith(`${COOKIE}=`));
  const value = match?.slice(COOKIE.length + 1);
  return LANGUAGES.find((language) => language === value);
}

function initialLanguage(): Language {
  if (typeof document === "undefined") return "en";
  return languageFromCookie(document.cookie) ?? languageFromBrowser(navigator.languages ?? [navigator.language]);
}

// BCP 47 tag for <html lang>: the app's "afr" is the ISO 639-2 code for Afrikaans.
function htmlLang(language: Language): string {
  return language === "afr" ? "af" : "en";
}

export async function setLanguage(language: Language): Promise<void> {
  document.cookie = `${COOKIE}=${language}; path=/; max-age=31536000; samesite=lax`;
  await i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return LANGUAGES.find((language) => language === i18next.language) ?? "en";
}

export function initI18n(): typeof i18next {
  i18next.on("languageChanged", (language) => {
    document.documentElement.lang = htmlLang(language === "afr" ? "afr" : "en");
    document.title = i18next.t("app.name");
  });
  void i18next.use(initReactI18next).init({
    resources: { en: { translation: en }, afr: { translation: afr } },
    lng: initialLanguage(),
    fallbackLng: "en",
    supportedLngs: LANGUAGES,
    interpolation: { escapeValue: false },
  });
  return i18next;
}
