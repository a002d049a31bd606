import type { ErrorCode } from "../../protocol/wire";

const BASE = "/api/auth";

export type SessionUser = { id: string; name: string; email: string };
export type SessionPayload = { user?: SessionUser; expires?: string };

let csrfToken: string | undefined;

// The served page may carry the token; otherwise ask the server for one (it also sets the cookie).
async function getCsrfToken(refresh = false): Promise<string> {
  if (csrfToken && !refresh) return csrfToken;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
  if (meta && !refresh) {
    csrfToken = meta;
    return meta;
  }
  const response = await fetch(`${BASE}/csrf`, { credentials: "same-origin" });
  const body = (await response.json()) as { csrfToken?: string };
  if (!body.csrfToken) throw new Error("no csrf token");
  csrfToken = body.csrfToken;
  return csrfToken;
}

/** A way to sign in, as `GET {base}/providers` lists it (NextAuth's provider shape). */
export type Provider = { id: string; name: string; type: string; signinUrl: string; callbackUrl: string };

/** The server's sign-in providers by id; throws when the list cannot be fetched. */
export async function fetchProviders(): Promise<Record<string, Provider>> {
  const response = await fetch(`${BASE}/providers`, { credentials: "same-origin", cache: "no-store" });
  if (!response.ok) throw new Error(`the sign-in providers could not be fetched (${response.status})`);
  return (await response.json()) as Record<string, Provider>;
}

export async function fetchSession(): Promise<SessionPayload> {
  const response = await fetch(`${BASE}/session`, { credentials: "same-origin", cache: "no-store" });
  if (!response.ok) return {};
  return (await response.json()) as SessionPayload;
}

async function postForm(path: string, fields: Record<string, string>): Promise<{ status: number; url?: string }> {
  const token = await getCsrfToken();
  const response = await fetch(`${BASE}${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-csrf-token": token },
    body: new URLSearchParams({ ...fields, csrfToken: token, json: "true" }),
  });
  const body = (await response.json().catch(() => ({}))) as { url?: string };
  return { status: response.status, url: body.url };
}

export type SignInError =
  | "CredentialsSignin"
  | "TwoFactorRequired"
  | "TwoFactorInvalid"
  | "TooManyAttempts"
  | "Verification"
  | "csrf"
  | "unknown";
export type SignInResult = { ok: true; url: string } | { ok: false; error: SignInError };

const NAMED_ERRORS: SignInError[] = ["CredentialsSignin", "TwoFactorRequired", "TwoFactorInvalid", "TooManyAttempts", "Verification"];

export function signInErrorFrom(status: number, url: string | undefined): SignInError | null {
  const params = url ? new URL(url, "http://x").searchParams : new URLSearchParams();
  const error = params.get("error");
  if (params.get("csrf") === "true") return "csrf";
  const named = NAMED_ERRORS.find((name) => name === error);
  if (named) return named;
  if (status === 429) return "TooManyAttempts";
  if (status === 401) return "CredentialsSignin";
  if (status >= 400 || error) return "unknown";
  return null;
}

/** The second factor, when the account has two-factor sign-in on: a code from the app or a backup code. */
export type SecondFactor = { code: string } | { backupCode: string };

export async function signIn(email: string, password: string, callbackUrl: string, factor?: SecondFactor): Promise<SignInResult> {
  const attempt = () => postForm("/callback/credentials", { email, password, callbackUrl, ...factor });
  let result = await attempt();
  if (signInErrorFrom(result.status, result.url) === "csrf") {
    // A stale token (e.g. after a server restart): fetch a fresh one and try once more.
    await getCsrfToken(true);
    result = await attempt();
  }
  const error = signInErrorFrom(result.status, result.url);
  return error ? { ok: false, error } : { ok: true, url: result.url ?? callbackUrl };
}

export async function signOut(): Promise<void> {
  await postForm("/signout", { callbackUrl: "/auth/login" });
  csrfToken = undefined;
}

export type ApiError = { code: ErrorCode | "network"; field?: string };
export type JsonResult<T> = { ok: true; body: T } | { ok: false; status: number; error: ApiError };

/** POSTs JSON with the CSRF token in header and body; a stale token is renewed once. */
export async function postJson<T>(path: string, input: Record<string, unknown>): Promise<JsonResult<T>> {
  const attempt = async () => {
    const token = await getCsrfToken();
    const response = await fetch(`${BASE}${path}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrf-token": token },
      body: JSON.stringify({ ...input, csrfToken: token }),
    });
    const body = (await response.json().catch(() => ({}))) as T & { error?: ApiError };
    return { response, body };
  };
  let { response, body } = await attempt();
  if (body.error?.code === "csrf_invalid") {
    await getCsrfToken(true);
    ({ response, body } = await attempt());
  }
  if (response.ok) return { ok: true, body };
  const error = body.error ?? { code: response.status === 429 ? "rate_limited" : "internal" };
  return { ok: false, status: response.status, error };
}

export type SignUpInput = { name: string; email: string; password: string; businessName: string };
export type SignUpError = ApiError;

export async function signUp(input: SignUpInput): Promise<SignUpError | null> {
  const result = await postJson("/signup", input);
  return result.ok ? null : result.error;
}

/** Why a sign-in link was not sent: the address given, or the client asking too often. */
export type LinkRequestResult = { ok: true } | { ok: false; code: ErrorCode };

/**
 * Asks for a sign-in link by e-mail. The answer is the same whether or not the address has an
 * account; only a malformed address, a stale form or a flood of requests is refused.
 */
export async function requestSignInLink(email: string, callbackUrl: string): Promise<LinkRequestResult> {
  const token = await getCsrfToken();
  const response = await fetch(`${BASE}/signin/email`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-csrf-token": token },
    body: new URLSearchParams({ email, callbackUrl, csrfToken: token }),
  });
  if (response.ok) return { ok: true };
  const body = (await response.json().catch(() => ({}))) as { error?: { code?: ErrorCode } };
  return { ok: false, code: body.error?.code ?? "internal" };
}

/** The second factor after a followed sign-in link (the server holds the link meanwhile). */
export async function finishLinkSignIn(factor: SecondFactor): Promise<SignInResult> {
  const result = await postForm("/callback/email", { ...factor });
  const error = signInErrorFrom(result.status, result.url);
  return error ? { ok: false, error } : { ok: true, url: result.url ?? "/" };
}
