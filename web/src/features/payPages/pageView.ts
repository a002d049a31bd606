import type { PayPage } from "../../protocol/wire";

export type PageState = "active" | "inactive" | "expired" | "used_up";

/** What a payer opening the page now would find. `today` is `YYYY-MM-DD`. */
export function pageState(page: PayPage, today: string): PageState {
  if (!page.active) return "inactive";
  if (page.expiresOn && page.expiresOn < today) return "expired";
  if (page.maxUses !== undefined && page.uses >= page.maxUses) return "used_up";
  return "active";
}
