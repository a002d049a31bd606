import { postJson, type ApiError } from "./api";

// Password reset and e-mail verification: plain HTTP, so they work signed out.

/** Always succeeds for any address the server accepts: it does not tell who has an account. */
export async function requestPasswordReset(email: string): Promise<ApiError | null> {
  const result = await postJson<{ ok: boolean }>("/forgot", { email });
  return result.ok ? null : result.error;
}

export type ResetResult = { ok: true; url: string } | { ok: false; error: ApiError };

export async function resetPassword(token: string, password: string): Promise<ResetResult> {
  const result = await postJson<{ url?: string }>("/reset", { token, password });
  if (!result.ok) return result;
  return { ok: true, url: result.body.url ?? "/auth/login?reset=done" };
}

/** Whether a reset link still works, without using it: null when it does. */
export async function checkResetLink(token: string): Promise<ApiError | null> {
  const result = await postJson<{ ok: boolean }>("/reset/check", { token });
  return result.ok ? null : result.error;
}

export type VerifyResult = { ok: true; email: string } | { ok: false; error: ApiError };

// Links are single-use: one request per token per page load, however often a screen mounts.
const verifications = new Map<string, Promise<VerifyResult>>();

export function verifyEmail(token: string): Promise<VerifyResult> {
  let pending = verifications.get(token);
  if (!pending) {
    pending = postJson<{ email?: string }>("/verify-email", { token }).then(
      (result): VerifyResult => (result.ok ? { ok: true, email: result.body.email ?? "" } : result),
      (): VerifyResult => ({ ok: false, error: { code: "network" } }),
    );
    verifications.set(token, pending);
  }
  return pending;
}
