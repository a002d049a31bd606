import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";

export type Mail = { file: string; to: string; subject: string; text: string; modified: number };

/** Undoes quoted-printable: soft line breaks (`=` at a line end) and `=XX` bytes, read as UTF-8. */
export function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

type Part = { headers: Map<string, string>; body: string };

function splitHead(raw: string): Part {
  const normalised = raw.replace(/\r\n/g, "\n");
  const end = normalised.indexOf("\n\n");
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? "" : normalised.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(part.body);
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  return part.body;
}

/** The plain-text body of a message, looking inside multipart messages (nested too). */
export function plainText(raw: string): string {
  const part = splitHead(raw);
  const type = part.headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!/^multipart\//i.test(type) || !boundary) return decodeBody(part);
  const pieces = part.body.split(`--${boundary}`).slice(1);
  const bodies = pieces.filter((piece) => !piece.startsWith("--")).map((piece) => splitHead(piece.replace(/^\n/, "")));
  const typeOf = (piece: Part) => piece.headers.get("content-type") ?? "text/plain";
  const plain = bodies.find((piece) => /^text\/plain/i.test(typeOf(piece)));
  if (plain) return decodeBody(plain);
  const nested = pieces.find((piece) => /content-type:\s*multipart\//i.test(piece));
  if (nested) return plainText(nested.replace(/^\n/, ""));
  return bodies.length > 0 ? decodeBody(bodies[0]) : "";
}

function decodeHeaderWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === "b" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text.replace(/_/g, " ")),
  );
}

export function readMail(file: string): Mail {
  const raw = readFileSync(file, "utf8");
  const { headers } = splitHead(raw);
  return {
    file,
    to: decodeHeaderWords(headers.get("to") ?? ""),
    subject: decodeHeaderWords(headers.get("subject") ?? ""),
    text: plainText(raw),
    modified: statSync(file).mtimeMs,
  };
}

/** The first link to this server in a text, e.g. `http://127.0.0.1:1234/auth/reset/...`. */
export function firstLink(text: string, baseURL: string): string | undefined {
  const escaped = baseURL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // A sentence may end right after the link: its full stop is not part of it.
  return new RegExp(`${escaped}/[^\\s<>"')\\]]+`).exec(text)?.[0].replace(/[.,;:!?]+$/, "");
}

function mailsTo(dir: string, address: string): Mail[] {
  const wanted = address.toLowerCase();
  return readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .map((name) => readMail(join(dir, name)))
    .filter((mail) => mail.to.toLowerCase().includes(wanted))
    .sort((a, b) => a.modified - b.modified || a.file.localeCompare(b.file));
}

/**
 * Waits for the newest mail to an address (newer than `after`, a time in ms, when given)
 * and returns it with the first link to the test server in its plain-text part.
 */
export async function waitForMailLink(address: string, options: { after?: number; timeoutMs?: number } = {}): Promise<Mail & { link: string }> {
  const dir = inject("mailDir");
  const baseURL = inject("baseURL");
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const mail = mailsTo(dir, address)
      .filter((entry) => options.after === undefined || entry.modified >= options.after)
      .at(-1);
    const link = mail && firstLink(mail.text, baseURL);
    if (mail && link) return { ...mail, link };
    if (Date.now() > deadline) throw new Error(`no mail with a link to ${address} in ${dir}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** Waits for a mail to an address whose plain text contains `needle` (a mail without a link, such as a confirmation). */
export async function waitForMailContaining(address: string, needle: string, timeoutMs = 20_000): Promise<Mail> {
  const dir = inject("mailDir");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = mailsTo(dir, address).find((entry) => entry.text.includes(needle));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} containing ${needle} in ${dir}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}
