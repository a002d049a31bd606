// The bank return codes DOMAIN.md names, each described in the locales.
export const UNPAID_CODES = ["02", "03", "04", "06", "08", "10", "12", "14", "16", "18", "22", "26", "28", "30", "32", "34", "36", "50", "56", "60"] as const;

export type UnpaidCode = (typeof UNPAID_CODES)[number];

export function knownUnpaidCode(code: string): UnpaidCode | undefined {
  return UNPAID_CODES.find((known) => known === code);
}

/** What the merchant can do next: present again (02), wait (22), or get a new mandate (the rest). */
export function unpaidRemedy(code: string): "retry" | "none" | "new_mandate" {
  if (code === "02") return "retry";
  if (code === "22") return "none";
  return "new_mandate";
}
