import { describe, expect, it } from "vitest";
import type { Payment, PaymentStatus } from "../../protocol/wire";
import { compareUpcoming, entriesOf, placeUpcoming, UPCOMING_LIMIT, type UpcomingView } from "./upcoming";

function payment(id: string, extra: Partial<Payment> = {}): Payment {
  return {
    id,
    mode: "test",
    kind: "recurring",
    customerId: "cus_1",
    customerName: `Payer ${id}`,
    mandateId: "man_1",
    method: "debicheck",
    status: "running",
    amountCents: 10_000,
    transactionReference: "",
    collectedCents: 0,
    attempts: 1,
    consecutiveUnpaids: 0,
    createdAt: 1,
    updatedAt: 1,
    ...extra,
  };
}

/** What the server answers for these payments: every entry, soonest first, the first eight listed. */
function serverView(payments: Iterable<Payment>): UpcomingView {
  const all = [...payments].flatMap(entriesOf).sort(compareUpcoming);
  return { upcoming: all.slice(0, UPCOMING_LIMIT), more: Math.max(0, all.length - UPCOMING_LIMIT) };
}

function day(n: number): string {
  return `2026-03-${String(n).padStart(2, "0")}`;
}

describe("upcoming collections placed from a delta", () => {
  it("lists a new payment's first debit at its first-collection amount", () => {
    const created = payment("pay_b", { nextActionDate: day(5), firstCollectionCents: 500, attempts: 0, createdAt: 7, updatedAt: 7 });
    const view = serverView([payment("pay_a", { nextActionDate: day(9) })]);
    expect(placeUpcoming(view, created, undefined)).toEqual(serverView([payment("pay_a", { nextActionDate: day(9) }), created]));
    expect(placeUpcoming(view, created, undefined)?.upcoming[0].amountCents).toBe(500);
  });

  it("counts a new debit after the eighth without listing it", () => {
    const known = Array.from({ length: 8 }, (_, n) => payment(`pay_${n}`, { nextActionDate: day(n + 1) }));
    const late = payment("pay_z", { nextActionDate: day(28), createdAt: 5, updatedAt: 5 });
    expect(placeUpcoming(serverView(known), late, undefined)).toEqual({ upcoming: serverView(known).upcoming, more: 1 });
  });

  it("leaves to the server a listed debit that moves while more are counted", () => {
    const known = Array.from({ length: 9 }, (_, n) => payment(`pay_${n}`, { nextActionDate: day(n + 1) }));
    const moved = payment("pay_0", { nextActionDate: day(20), updatedAt: 9 });
    // Known before: its next debit now comes after the ninth, which the tab never saw.
    expect(placeUpcoming(serverView(known), moved, known[0])).toBeNull();
    // Unknown before and not new: the counted ones may include its debits.
    expect(placeUpcoming(serverView(known), payment("pay_x", { nextActionDate: day(2), updatedAt: 9 }), undefined)).toBeNull();
  });

  it("matches the server's answer whenever it places, over random changes", () => {
    // A small deterministic generator: the same cases every run.
    let seed = 42;
    const next = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % below;
    };
    const statuses: PaymentStatus[] = ["running", "running", "running", "paused", "cancelled"];
    let placed = 0;
    let asked = 0;
    for (let round = 0; round < 300; round += 1) {
      const payments = new Map<string, Payment>();
      // What this tab has seen of each payment (from lists, or deltas while open).
      const seen = new Map<string, Payment>();
      for (let n = 0; n < next(14); n += 1) {
        const id = `pay_${n}`;
        const made = payment(id, {
          status: statuses[next(statuses.length)],
          nextActionDate: next(5) === 0 ? undefined : day(1 + next(20)),
          representationDate: next(4) === 0 ? day(1 + next(20)) : undefined,
          representationCents: 2_000,
        });
        payments.set(id, made);
        if (next(2) === 0) seen.set(id, made);
      }
      let view = serverView(payments.values());
      for (let step = 0; step < 6; step += 1) {
        const fresh = next(3) === 0;
        const id = fresh ? `pay_new${step}` : `pay_${next(14)}`;
        const at = 100 + step;
        const changed = payment(id, {
          status: statuses[next(statuses.length)],
          nextActionDate: next(4) === 0 ? undefined : day(1 + next(20)),
          representationDate: next(3) === 0 ? day(1 + next(20)) : undefined,
          representationCents: 3_000,
          createdAt: fresh ? at : 1,
          updatedAt: at,
        });
        const before = seen.get(id);
        payments.set(id, changed);
        seen.set(id, changed);
        const truth = serverView(payments.values());
        const mine = placeUpcoming(view, changed, before);
        if (mine) {
          expect(mine).toEqual(truth);
          placed += 1;
        } else {
          asked += 1;
        }
        view = truth;
      }
    }
    // Most changes place in the tab; the rest are left to the server's answer.
    expect(placed).toBeGreaterThan(asked);
  });
});
