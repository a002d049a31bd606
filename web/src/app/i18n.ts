import i18next from "i18next";
import { initReactI18next } from "react-i18next";

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

// Each language's words are a chunk of their own, fetched when first used:
// a first visit carries one language, not both.
const WORDS: Record<Language, () => Promise<{ default: object }>> = {
  en: () => import("../../../locales/en.json"),
  afr: () => import("../../../locales/afr.json"),
};

async function loadWords(language: Language): Promise<void> {
  if (i18next.hasResourceBundle(language, "translation")) return;
  const words = await WORDS[language]();
  i18next.addResourceBundle(language, "translation", words.default);
}

export async function setLanguage(language: Language): Promise<void> {
  document.cookie = `${COOKIE}=${language}; path=/; max-age=31536000; samesite=lax`;
  await loadWords(language);
  await i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return LANGUAGES.find((language) => language === i18next.language) ?? "en";
}

/** Starts i18next with the visitor's language loaded; the app renders once it resolves. */
export async function initI18n(): Promise<typeof i18next> {
  i18next.on("languageChanged", (language) => {
    document.documentElement.lang = htmlLang(language === "afr" ? "afr" : "en");
    document.title = i18next.t("app.name");
  });
  const language = initialLanguage();
  // Every key exists in both files (locales.test.ts), so no fallback language is fetched.
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: language,
    fallbackLng: false,
    supportedLngs: LANGUAGES,
    interpolation: { escapeValue: false },
  });
  await loadWords(language);
  await i18next.changeLanguage(language);
  return i18next;
}
