import type { Page } from "playwright-core";
import { encodeFrame } from "../src/live/codec";
import type { Command, Mode, PaymentInput } from "../src/protocol/wire";

/**
 * Runs commands over a second socket opened inside the page (so it carries the page's
 * session cookie) in the given mode, one at a time, each once its answer came back.
 */
export async function runCommands(page: Page, mode: Mode, commands: Command[]): Promise<void> {
  const hello = Array.from(encodeFrame({ t: "Hello", build: "e2e-seed", mode }));
  const frames = commands.map((command, index) => Array.from(encodeFrame({ t: "Command", id: `seed-${Date.now()}-${index}`, command })));
  await page.evaluate(
    async ({ hello, frames }) => {
      const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
      socket.binaryType = "arraybuffer";
      await new Promise((done, fail) => {
        socket.onopen = done;
        socket.onerror = fail;
      });
      const next = () => new Promise((done) => (socket.onmessage = done));
      const welcomed = next();
      socket.send(Uint8Array.from(hello));
      await welcomed;
      for (const frame of frames) {
        // The sender gets its Delta and its Reply: the command has run once anything comes back.
        const answered = next();
        socket.send(Uint8Array.from(frame));
        await answered;
      }
      socket.close(1000);
    },
    { hello, frames },
  );
}

export type EftDebitOrder = {
  customerId: string;
  /** The payer's account on the simulated bank, which decides each debit's fate (see the README). */
  accountNumber: string;
  amountCents: number;
  /** Once-off: the date to process; recurring (weekly): the start date. */
  date: string;
  kind: "once" | "recurring";
  reference: string;
};

/**
 * An EFT debit order that starts running at once, under a new mandate (active from the
 * start: no payer approval) on a new Capitec account.
 */
export function eftDebitOrder({ customerId, accountNumber, amountCents, date, kind, reference }: EftDebitOrder): PaymentInput {
  return {
    customerId,
    kind,
    amountCents,
    transactionReference: kind === "once" ? reference : "",
    ...(kind === "once" ? { dateToProcess: date } : { startDate: date, interval: "weekly" as const, dayToProcess: 3 }),
    startRunning: true,
    mandate: {
      t: "New",
      input: {
        method: "eft_debit_order",
        bankAccount: {
          t: "New",
          input: { bank: "capitec", branchCode: "470010", accountType: "savings", holderName: "Payer", accountNumber },
        },
        clientType: "resident_individual",
        industry: "subscription",
        contractReference: reference.replace(/[^A-Za-z0-9]/g, "").slice(0, 14),
        maximumCollectionCents: amountCents * 2,
        allowTracking: false,
        allowDateAdjustment: false,
        variableAmount: false,
        adjustmentCategory: "never",
        adjustmentRate: "",
        abbreviatedName: "KAROO GYM",
      },
    },
  };
}
