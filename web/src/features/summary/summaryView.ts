import { readAllPages, type Ask } from "../../live/ask";
import type { PaymentMethod, ReplyBody, Statement } from "../../protocol/wire";

export type Period = { from: string; to: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(text: string | null): text is string {
  return text !== null && DAY.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));
}

/** The period of the address (`?from=&to=`); the month so far when either is missing or not a date. */
export function readPeriod(params: URLSearchParams, today: string): Period {
  const from = params.get("from");
  const to = params.get("to");
  if (isDay(from) && isDay(to)) return { from, to };
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/** The address of the summary for a period. */
export function summaryPath(period: Period): string {
  return `/download/summary?${new URLSearchParams({ from: period.from, to: period.to }).toString()}`;
}

const statementPage = (reply: ReplyBody) => (reply.t === "Statement" ? { items: [reply.statement], next: reply.statement.nextOffset } : undefined);

/** The period's statement with every entry: its figures come with each page, its entries a page at a time. */
export async function readStatement(ask: Ask, period: Period): Promise<Statement> {
  const { items: pages } = await readAllPages<Statement, number>(ask, {
    from: 0,
    query: (offset) => ({ t: "GetStatement", from: period.from, to: period.to, offset }),
    page: statementPage,
  });
  const [first] = pages;
  if (!first) throw new Error("no statement");
  return { ...first, lines: pages.flatMap((page) => page.lines) };
}

export type SummaryRow = { key: string; label: string; cents: number; strong?: boolean };

/** What a summary row is, for its label. */
export type RowLabel =
  | { t: "opening" | "fees" | "feeReturns" | "refunds" | "reversals" | "disputes" | "closing" }
  | { t: "collected"; method: PaymentMethod; count: number }
  | { t: "kind"; kind: string };

/** The ledger kinds the app has names for; others show as they are. */
export const KNOWN_KINDS = [
  "collection",
  "fee",
  "fee_return",
  "refund",
  "refund_fee_return",
  "late_unpaid",
  "dispute",
  "payout",
  "payout_fee",
  "payout_return",
] as const;
export type KnownKind = (typeof KNOWN_KINDS)[number];

export function knownKind(kind: string): KnownKind | undefined {
  return KNOWN_KINDS.find((known) => known === kind);
}

/** The summary's rows from opening to closing, as the page and its print show them. */
export function summaryRows(statement: Statement, label: (row: RowLabel) => string): SummaryRow[] {
  const rows: SummaryRow[] = [{ key: "opening", label: label({ t: "opening" }), cents: statement.openingBalanceCents, strong: true }];
  for (const total of statement.collected) {
    rows.push({ key: `collected-${total.method}`, label: label({ t: "collected", method: total.method, count: total.count }), cents: total.amountCents });
  }
  rows.push(
    { key: "fees", label: label({ t: "fees" }), cents: statement.feesCents },
    { key: "feeReturns", label: label({ t: "feeReturns" }), cents: statement.feeReturnsCents },
    { key: "refunds", label: label({ t: "refunds" }), cents: statement.refundsCents },
    { key: "reversals", label: label({ t: "reversals" }), cents: statement.reversalsCents },
    { key: "disputes", label: label({ t: "disputes" }), cents: statement.disputesCents },
  );
  for (const total of [...statement.payouts, ...statement.other]) {
    rows.push({ key: `kind-${total.kind}`, label: label({ t: "kind", kind: total.kind }), cents: total.amountCents });
  }
  rows.push({ key: "closing", label: label({ t: "closing" }), cents: statement.closingBalanceCents, strong: true });
  return rows;
}
