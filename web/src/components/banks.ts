import type { AccountType, BankId } from "../protocol/wire";

// South African banks in the order merchants look for them, with the universal branch code
// a debit to any of their branches can use.
export const BANKS: readonly { id: BankId; name: string; branchCode: string }[] = [
  { id: "absa", name: "Absa", branchCode: "632005" },
  { id: "capitec", name: "Capitec", branchCode: "470010" },
  { id: "fnb", name: "FNB", branchCode: "250655" },
  { id: "nedbank", name: "Nedbank", branchCode: "198765" },
  { id: "standard_bank", name: "Standard Bank", branchCode: "051001" },
  { id: "african_bank", name: "African Bank", branchCode: "430000" },
  { id: "investec", name: "Investec", branchCode: "580105" },
  { id: "tymebank", name: "TymeBank", branchCode: "678910" },
  { id: "discovery_bank", name: "Discovery Bank", branchCode: "679000" },
  { id: "bidvest_bank", name: "Bidvest Bank", branchCode: "462005" },
  { id: "bank_zero", name: "Bank Zero", branchCode: "888000" },
  { id: "access_bank", name: "Access Bank", branchCode: "410506" },
  { id: "sasfin", name: "Sasfin", branchCode: "683000" },
  { id: "sa_post_bank", name: "SA Post Bank", branchCode: "460005" },
  { id: "rand_merchant_bank", name: "Rand Merchant Bank", branchCode: "261251" },
  { id: "albaraka", name: "Albaraka", branchCode: "800000" },
  { id: "hsbc", name: "HSBC", branchCode: "587000" },
  { id: "citibank", name: "Citibank", branchCode: "350005" },
  { id: "standard_chartered", name: "Standard Chartered", branchCode: "730020" },
  { id: "finbond_mutual", name: "Finbond Mutual", branchCode: "589000" },
  { id: "ubank", name: "Ubank", branchCode: "431010" },
];

export const ACCOUNT_TYPES: readonly AccountType[] = ["current", "savings", "transmission"];

export function bankOf(id: string): (typeof BANKS)[number] | undefined {
  return BANKS.find((bank) => bank.id === id);
}

/** The bank's own name; an id this build does not know yet shows as sent. */
export function bankName(id: string): string {
  return bankOf(id)?.name ?? id;
}

export function universalBranchCode(id: string): string {
  return bankOf(id)?.branchCode ?? "";
}

/** Only the last 4 digits show: "•••• 6789". */
export function maskAccountNumber(number: string): string {
  return `•••• ${number.slice(-4)}`;
}
