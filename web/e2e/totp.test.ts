import { describe, expect, it } from "vitest";
import { base32Decode, totp } from "./totp";

describe("totp", () => {
  it("matches the RFC 6238 SHA-1 test vectors", () => {
    const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    expect(base32Decode(secret).toString()).toBe("12345678901234567890");
    expect(totp(secret, 59_000, 8)).toBe("94287082");
    expect(totp(secret, 1_111_111_109_000, 8)).toBe("07081804");
    expect(totp(secret, 59_000)).toBe("287082");
  });
});
