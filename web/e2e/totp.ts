import { createHmac } from "node:crypto";

const STEP_SECONDS = 30;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = ALPHABET.indexOf(char);
    if (index === -1) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 6238 with HMAC-SHA1, as authenticator apps compute it. */
export function totp(secret: string, atMs = Date.now(), digits = 6): string {
  return hotp(base32Decode(secret), Math.floor(atMs / 1000 / STEP_SECONDS), digits);
}

function hotp(key: Buffer, counter: number, digits: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

const lastStep = new Map<string, number>();

/**
 * A code the server has not seen yet: it accepts each time step once, so after a code was
 * used this waits (up to 30 s) for the next step. Also waits out the last two seconds of a
 * step, so the code does not expire on its way.
 */
export async function freshCode(secret: string): Promise<string> {
  for (;;) {
    const now = Date.now();
    const step = Math.floor(now / 1000 / STEP_SECONDS);
    const left = (step + 1) * STEP_SECONDS * 1000 - now;
    if (step > (lastStep.get(secret) ?? -1) && left > 2000) {
      lastStep.set(secret, step);
      return totp(secret, now);
    }
    await new Promise((done) => setTimeout(done, Math.min(left + 50, 1000)));
  }
}
