// Dates as South Africans read them, in the interface language.
export function formatDateTime(epochMs: number, language: string): string {
  const locale = language === "afr" ? "af-ZA" : "en-ZA";
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(epochMs));
}

export function formatDate(epochMs: number, language: string): string {
  const locale = language === "afr" ? "af-ZA" : "en-ZA";
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(new Date(epochMs));
}
