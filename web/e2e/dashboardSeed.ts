import type { Page } from "playwright-core";
import { decodeFrame, encodeFrame } from "../src/live/codec";
import type { ClientFrame, Command, CustomerInput, Mode, PaymentInput, Query, ReplyBody } from "../src/protocol/wire";

const DECODE = "__e2eReplyTo";
const exposed = new WeakSet<Page>();

// The page hands each frame it receives to this, so it can stop at its command's reply.
async function exposeDecoder(page: Page): Promise<void> {
  if (exposed.has(page)) return;
  exposed.add(page);
  await page.exposeFunction(DECODE, (bytes: number[], id: string) => {
    const frame = decodeFrame(Uint8Array.from(bytes).buffer);
    if (frame.t !== "Reply" || frame.id !== id) return null;
    return { ok: frame.ok ?? null, error: frame.error ? JSON.stringify(frame.error) : null };
  });
}

/**
 * Runs one command over a second socket opened inside the page (so it carries the page's
 * session cookie) in the given mode, and answers with the server's reply.
 */
export async function runCommand(page: Page, mode: Mode, command: Command): Promise<ReplyBody> {
  return exchange(page, mode, command.t, (id) => ({ t: "Command", id, command }));
}

/** Asks one query the same way, as the page's person reads the records. */
export async function runQuery(page: Page, mode: Mode, query: Query): Promise<ReplyBody> {
  return exchange(page, mode, query.t, (id) => ({ t: "Query", id, query }));
}

async function exchange(page: Page, mode: Mode, name: string, framed: (id: string) => ClientFrame): Promise<ReplyBody> {
  await exposeDecoder(page);
  const id = `seed-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const hello = Array.from(encodeFrame({ t: "Hello", build: "e2e-seed", mode }));
  const frame = Array.from(encodeFrame(framed(id)));
  const reply = await page.evaluate(
    async ({ hello, frame, id, decode }) => {
      const replyTo = (window as unknown as Record<string, (bytes: number[], id: string) => Promise<{ ok: unknown; error: string | null } | null>>)[decode];
      const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
      socket.binaryType = "arraybuffer";
      await new Promise((done, fail) => {
        socket.onopen = done;
        socket.onerror = fail;
      });
      const welcomed = new Promise((done) => (socket.onmessage = done));
      socket.send(Uint8Array.from(hello));
      await welcomed;
      const answer = await new Promise<{ ok: unknown; error: string | null }>((done) => {
        socket.onmessage = (event) => {
          void replyTo(Array.from(new Uint8Array(event.data as ArrayBuffer)), id).then((found) => {
            if (found) done(found);
          });
        };
        socket.send(Uint8Array.from(frame));
      });
      socket.close(1000);
      return answer;
    },
    { hello, frame, id, decode: DECODE },
  );
  if (reply.error || !reply.ok) throw new Error(`${name} failed: ${reply.error ?? "no answer"}`);
  return reply.ok as ReplyBody;
}

/** Creates a record and answers with its id. */
export async function createRecord(page: Page, mode: Mode, command: Command): Promise<string> {
  const reply = await runCommand(page, mode, command);
  if (reply.t !== "Committed" || !reply.id) throw new Error(`${command.t} did not say what it created`);
  return reply.id;
}

export function debiCheckPayer(name: string, email: string): CustomerInput {
  return {
    name,
    email,
    cellphone: "+27821234567",
    idType: "south_african_id",
    idNumber: "8801235111088",
    addressLine1: "",
    addressLine2: "",
    city: "",
    postalCode: "",
    reference: "",
  };
}

/**
 * A weekly DebiCheck debit order starting on `startDate`, under a new mandate on a new
 * Capitec account; the simulated bank answers from the account number (see the README).
 */
export function weeklyDebiCheck(customerId: string, startDate: string, accountNumber: string, amountCents: number): PaymentInput {
  return {
    customerId,
    kind: "recurring",
    amountCents,
    transactionReference: "",
    startDate,
    interval: "weekly",
    dayToProcess: 3,
    startRunning: true,
    mandate: {
      t: "New",
      input: {
        method: "debicheck",
        bankAccount: {
          t: "New",
          input: { bank: "capitec", branchCode: "470010", accountType: "savings", holderName: "T Nkosi", accountNumber },
        },
        clientType: "resident_individual",
        industry: "subscription",
        contractReference: "GYM2026",
        maximumCollectionCents: Math.floor(amountCents * 1.5),
        allowTracking: false,
        allowDateAdjustment: false,
        variableAmount: false,
        adjustmentCategory: "never",
        adjustmentRate: "",
        approvalWindow: "tt1_real_time",
        abbreviatedName: "KAROO GYM",
      },
    },
  };
}
