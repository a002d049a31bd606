/** A file size as people read it: bytes, KB or MB, in the interface language. */
export function formatBytes(bytes: number, language: string): string {
  const locale = language === "afr" ? "af-ZA" : "en-ZA";
  if (bytes < 1024) return new Intl.NumberFormat(locale, { style: "unit", unit: "byte", unitDisplay: "short" }).format(bytes);
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, "kilobyte"] : [bytes / (1024 * 1024), "megabyte"];
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 1 }).format(value);
}
