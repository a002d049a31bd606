import type { Page } from "playwright-core";

/** A screen of the app: where it lives and the test id that says it has drawn. */
export type Screen = { name: string; path: string; ready: string };

/** Moves the app to `path` as its own links do (no reload, no new socket), and waits until the screen has its records. */
export async function visit(page: Page, screen: Screen): Promise<void> {
  await page.evaluate((path) => {
    history.pushState(null, "", path);
    dispatchEvent(new PopStateEvent("popstate"));
  }, screen.path);
  await page.getByTestId(screen.ready).waitFor();
  await page.waitForFunction(() => document.querySelectorAll("main .spinner, .page-spinner").length === 0, undefined, { timeout: 5_000 }).catch(() => undefined);
}

/** The first link in the screen at `from` whose address starts with `prefix`. */
export async function firstLink(page: Page, from: Screen, prefix: string): Promise<string> {
  await visit(page, from);
  const link = page.locator(`main a[href^="${prefix}"]`).first();
  await link.waitFor();
  return (await link.getAttribute("href")) ?? "";
}
