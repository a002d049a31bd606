import type { InviteDetails } from "../../protocol/wire";
import { postJson, type ApiError } from "./api";

// The invite link's steps are plain HTTP: they work signed out, and the token stays out of URLs.

export type Looked = { ok: true; invite: InviteDetails } | { ok: false; error: ApiError };

export async function lookUpInvite(token: string): Promise<Looked> {
  const result = await postJson<InviteDetails>("/invite", { token });
  return result.ok ? { ok: true, invite: result.body } : { ok: false, error: result.error };
}

export async function acceptInvite(token: string): Promise<{ ok: true; merchantId: string } | { ok: false; error: ApiError }> {
  const result = await postJson<{ merchantId?: string }>("/invite/accept", { token });
  return result.ok ? { ok: true, merchantId: result.body.merchantId ?? "" } : { ok: false, error: result.error };
}

export async function signUpFromInvite(token: string, name: string, password: string): Promise<ApiError | null> {
  const result = await postJson("/invite/signup", { token, name, password });
  return result.ok ? null : result.error;
}
