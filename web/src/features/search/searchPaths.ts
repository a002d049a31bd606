import type { SearchHit } from "../../protocol/wire";

/** The screen that shows a hit's record: its own page, or the list that opens it in a dialog. */
export function hitPath(hit: SearchHit): string {
  const id = encodeURIComponent(hit.id);
  switch (hit.kind) {
    case "customer":
      return `/customers/${id}`;
    case "payment":
      return hit.paymentKind === "recurring" ? `/payments/recurring/${id}` : `/payments/one-time/${id}`;
    case "mandate":
      return `/mandates/${id}`;
    case "transaction":
      return `/payments/transactions/${id}`;
    // Orders and payouts have no page of their own: their list opens one by `?order=`/`?payout=`.
    case "order":
      return `/commerce/orders?order=${id}`;
    case "payout":
      return `/account/payouts?payout=${id}`;
  }
}
