import { describe, expect, it } from "vitest";
import { decodeQuotedPrintable, firstLink, plainText } from "./mail";

const BASE = "http://127.0.0.1:40123";

describe("reading test mail", () => {
  it("joins soft line breaks and decodes =XX, UTF-8 included", () => {
    expect(decodeQuotedPrintable(`${BASE}/auth/reset/abc=\r\ndef?x=3D1`)).toBe(`${BASE}/auth/reset/abcdef?x=1`);
    expect(decodeQuotedPrintable("Kli=C3=ABnte")).toBe("Kliënte");
  });

  it("finds the plain-text part of a multipart message and its first link", () => {
    const raw = [
      "To: thandi@example.co.za",
      "Subject: Reset your password",
      'Content-Type: multipart/alternative; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "Follow this link:",
      `${BASE}/auth/reset/tok_0123456789abcdef0123456789abcdef0123=`,
      "456789",
      "",
      "--b1",
      "Content-Type: text/html; charset=utf-8",
      "",
      `<a href="${BASE}/wrong">x</a>`,
      "--b1--",
      "",
    ].join("\r\n");
    const text = plainText(raw);
    expect(firstLink(text, BASE)).toBe(`${BASE}/auth/reset/tok_0123456789abcdef0123456789abcdef0123456789`);
  });

  it("reads a single-part 7bit message", () => {
    const raw = `To: a@example.co.za\nContent-Type: text/plain\n\nGo to ${BASE}/account/teams/email/verify/tok_1.\n`;
    expect(firstLink(plainText(raw), BASE)).toBe(`${BASE}/account/teams/email/verify/tok_1`);
  });
});
