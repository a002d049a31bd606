// Only same-site paths: an open redirect would let a link send people anywhere after sign-in.
export function safeRedirect(value: string | null | undefined, fallback = "/"): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  return value;
}

export function loginPathFor(pathname: string, search = ""): string {
  return `/auth/login?${new URLSearchParams({ redirect: pathname + search }).toString()}`;
}
