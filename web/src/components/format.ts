// Times as South Africans read them, in the interface language, on South African time: the
// business day (collections, statements, the home screen's date) runs there, so a time shown
// beside a business date must agree with it whatever the browser's own time zone.
const SOUTH_AFRICA = "Africa/Johannesburg";

export function formatDateTime(epochMs: number, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: "medium", timeStyle: "short", timeZone: SOUTH_AFRICA }).format(new Date(epochMs));
}

export function formatDate(epochMs: number, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: "medium", timeZone: SOUTH_AFRICA }).format(new Date(epochMs));
}

function localeOf(language: string): string {
  return language === "afr" ? "af-ZA" : "en-ZA";
}

/** Names as a sentence lists them: "Teams and Customers", "Spanne en Kliënte". */
export function formatList(items: string[], language: string): string {
  return new Intl.ListFormat(localeOf(language), { style: "long", type: "conjunction" }).format(items);
}

/** Integer cents as rand, e.g. R 1 234,50; never through floats beyond display. */
export function formatMoney(cents: number, language: string): string {
  return new Intl.NumberFormat(localeOf(language), { style: "currency", currency: "ZAR" }).format(cents / 100);
}

/** A business date (`YYYY-MM-DD`, no time zone) as the interface language writes dates. */
export function formatBusinessDate(isoDate: string, language: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  if (!year || !month || !day) return isoDate;
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(Date.UTC(year, month - 1, day)),
  );
}

/** Basis points (1 % = 100) as a percentage with up to two decimals. */
export function formatBasisPoints(bp: number, language: string): string {
  return new Intl.NumberFormat(localeOf(language), { style: "percent", maximumFractionDigits: 2 }).format(bp / 10_000);
}

/** Today's date in South Africa (`YYYY-MM-DD`), where the server's business day runs. */
export function todayInSouthAfrica(now: Date = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: SOUTH_AFRICA, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/**
 * A phone number as South Africans read it: `082 123 4567`, `+27 82 123 4567`.
 * Numbers are stored without spaces; one of another shape is shown as stored.
 */
export function formatPhone(stored: string): string {
  const local = /^0(\d{2})(\d{3})(\d{4})$/.exec(stored);
  if (local) return `0${local[1]} ${local[2]} ${local[3]}`;
  const international = /^\+27(\d{2})(\d{3})(\d{4})$/.exec(stored);
  if (international) return `+27 ${international[1]} ${international[2]} ${international[3]}`;
  return stored;
}
