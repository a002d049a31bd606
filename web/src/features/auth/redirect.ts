// Only paths on this origin: an open redirect would let a link send people anywhere after sign-in.
// Judged as the browser will read the path: it drops tabs and line breaks and reads "\" as "/",
// so "/\t/evil.example" is "//evil.example" to it, another site.

// Any origin will do: a path that resolves away from it leaves the site.
const BASE = "https://app.invalid";

function hasRewrittenCharacters(value: string): boolean {
  return [...value].some((c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 || code === 0x7f || c === "\\";
  });
}

export function safeRedirect(value: string | null | undefined, fallback = "/"): string {
  if (!value || !value.startsWith("/") || hasRewrittenCharacters(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE || url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}

export function loginPathFor(pathname: string, search = ""): string {
  return `/auth/login?${new URLSearchParams({ redirect: pathname + search }).toString()}`;
}
