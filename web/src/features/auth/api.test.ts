import { describe, expect, it } from "vitest";
import { signInErrorFrom } from "./api";

describe("signInErrorFrom", () => {
  it("reads the two-factor answers of the credentials callback", () => {
    expect(signInErrorFrom(401, "/auth/login?error=TwoFactorRequired")).toBe("TwoFactorRequired");
    expect(signInErrorFrom(401, "http://127.0.0.1:8080/auth/login?error=TwoFactorInvalid")).toBe("TwoFactorInvalid");
  });

  it("keeps the older answers", () => {
    expect(signInErrorFrom(401, "/auth/login?error=CredentialsSignin")).toBe("CredentialsSignin");
    expect(signInErrorFrom(429, undefined)).toBe("TooManyAttempts");
    expect(signInErrorFrom(403, "/auth/login?csrf=true")).toBe("csrf");
    expect(signInErrorFrom(401, undefined)).toBe("CredentialsSignin");
    expect(signInErrorFrom(400, "/auth/login?error=Something")).toBe("unknown");
    expect(signInErrorFrom(200, "/")).toBeNull();
  });
});
