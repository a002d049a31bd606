import { atom, useAtomValue, useSetAtom } from "jotai";
import { useEffect } from "react";

export type ThemePreference = "light" | "dark" | "system";
// A page may force a colour mode, but never "system".
export type ForcedTheme = "light" | "dark";

const KEY = "theme";

function storedPreference(): ThemePreference {
  try {
    const value = localStorage.getItem(KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

const preferenceBaseAtom = atom<ThemePreference>(storedPreference());

export const themePreferenceAtom = atom(
  (get) => get(preferenceBaseAtom),
  (_get, set, preference: ThemePreference) => {
    try {
      localStorage.setItem(KEY, preference);
    } catch {
      // Private windows may refuse storage; the choice still holds for this page.
    }
    set(preferenceBaseAtom, preference);
  },
);

export const forcedThemeAtom = atom<ForcedTheme | null>(null);

function systemPrefersDark(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches;
}

export function resolveTheme(preference: ThemePreference, forced: ForcedTheme | null, systemDark: boolean): ForcedTheme {
  if (forced) return forced;
  if (preference === "system") return systemDark ? "dark" : "light";
  return preference;
}

/** Keeps `class="dark"` on <html> in step with the preference, a forced mode and the system. */
export function useApplyTheme(): void {
  const preference = useAtomValue(themePreferenceAtom);
  const forced = useAtomValue(forcedThemeAtom);
  useEffect(() => {
    const apply = () => {
      const theme = resolveTheme(preference, forced, systemPrefersDark());
      document.documentElement.classList.toggle("dark", theme === "dark");
      document.documentElement.style.colorScheme = theme;
    };
    apply();
    if (typeof matchMedia !== "function") return;
    const media = matchMedia("(prefers-color-scheme: dark)");
    media.addEventListener("change", apply);
    return () => media.removeEventListener("change", apply);
  }, [preference, forced]);
}

/** For a page that must show in one colour mode (e.g. a printable summary). */
export function useForcedTheme(theme: ForcedTheme): void {
  const setForced = useSetAtom(forcedThemeAtom);
  useEffect(() => {
    if (theme !== "light" && theme !== "dark") throw new Error("a page can force only light or dark");
    setForced(theme);
    return () => setForced(null);
  }, [theme, setForced]);
}
