import { routes } from "./routes";

// Error reporting, on only when the server hands out a DSN (SENTRY_DSN): the
// SDK is then loaded on its own, after the first paint, and reports uncaught
// errors, unhandled rejections and screens that failed to render. Off, no
// reporting code is loaded at all. Addresses are sent without query, hash,
// ids or tokens (reset and invite links carry theirs in the path), and no
// breadcrumbs (they hold addresses and what was clicked).

type Reporter = { captureException: (error: unknown) => unknown };

type ClientConfig = { errorReporting?: { dsn?: string } | null };

let started: Promise<Reporter | null> | undefined;

/** A path as it may be reported: token positions of the route table and anything id-like replaced. */
export function redactPath(path: string): string {
  const parts = path.split("/");
  const tokenRoute = routes.find((entry) => {
    const pattern = entry.path.split("/");
    return (
      pattern.length === parts.length &&
      pattern.includes(":token") &&
      pattern.every((part, i) => part.startsWith(":") || part === parts[i])
    );
  });
  const tokenAt = tokenRoute ? tokenRoute.path.split("/").indexOf(":token") : -1;
  return parts
    .map((part, i) => (i === tokenAt || (part.length >= 16 && /\d/.test(part)) ? "[redacted]" : part))
    .join("/");
}

async function dsnFromServer(): Promise<string | null> {
  try {
    const response = await fetch("/api/auth/config", { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return null;
    const config = (await response.json()) as ClientConfig;
    const dsn = config.errorReporting?.dsn;
    return typeof dsn === "string" && dsn !== "" ? dsn : null;
  } catch {
    return null;
  }
}

/** Starts reporting when the server has a DSN; resolves to the reporter, or null when off. */
export function startErrorReporting(dsn: () => Promise<string | null> = dsnFromServer): Promise<Reporter | null> {
  started ??= dsn().then(async (found) => {
    if (!found) return null;
    const Sentry = await import("@sentry/browser");
    Sentry.init({
      dsn: found,
      integrations: (defaults) => defaults.filter((integration) => integration.name !== "Breadcrumbs"),
      beforeSend(event) {
        event.request = { url: `${location.origin}${redactPath(location.pathname)}` };
        event.breadcrumbs = [];
        event.user = undefined;
        return event;
      },
    });
    return Sentry;
  });
  return started;
}

/** Reports an error a screen caught (its render failed); nothing when reporting is off. */
export function reportError(error: unknown): void {
  void started?.then((reporter) => reporter?.captureException(error));
}
