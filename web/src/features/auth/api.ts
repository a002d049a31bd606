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

export type SignInError = "CredentialsSignin" | "TooManyAttempts" | "csrf" | "unknown";
export type SignInResult = { ok: true; url: string } | { ok: false; error: SignInError };

export function signInErrorFrom(status: number, url: string | undefined): SignInError | null {
  const params = url ? new URL(url, "http://x").searchParams : new URLSearchParams();
  const error = params.get("error");
  if (params.get("csrf") === "true") return "csrf";
  if (error === "CredentialsSignin" || error === "TooManyAttempts") return error;
  if (status === 429) return "TooManyAttempts";
  if (status === 401) return "CredentialsSignin";
  if (status >= 400 || error) return "unknown";
  return null;
}

export async function signIn(email: string, password: string, callbackUrl: string): Promise<SignInResult> {
  const attempt = () => postForm("/callback/credentials", { email, password, callbackUrl });
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

export type SignUpInput = { name: string; email: string; password: string; businessName: string };
export type SignUpError = { code: ErrorCode | "network"; field?: string };

export async function signUp(input: SignUpInput): Promise<SignUpError | null> {
  const attempt = async () => {
    const token = await getCsrfToken();
    return fetch(`${BASE}/signup`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrf-token": token },
      body: JSON.stringify({ ...input, csrfToken: token }),
    });
  };
  let response = await attempt();
  let body = (await response.json().catch(() => ({}))) as { error?: SignUpError };
  if (body.error?.code === "csrf_invalid") {
    await getCsrfToken(true);
    response = await attempt();
    body = (await response.json().catch(() => ({}))) as { error?: SignUpError };
  }
  if (response.ok) return null;
  return body.error ?? { code: "internal" };
}
