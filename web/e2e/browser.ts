import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { inject } from "vitest";

export const screenshots = resolve(import.meta.dirname, "..", "test-results");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export type Session = {
  baseURL: string;
  context: BrowserContext;
  newPage: () => Promise<Page>;
  close: () => Promise<void>;
};

// One Chromium per test file, started by the file's first session; every
// session is a context of its own in it. A context starts without cookies,
// storage or cache, like a fresh profile, but in a fraction of a second where
// starting a browser took three.
let shared: Promise<Browser> | undefined;

function browser(): Promise<Browser> {
  shared ??= chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ARGS,
    headless: true,
  });
  return shared;
}

/** Closes the file's Chromium (`close-browser.ts` calls it after each file). */
export async function closeBrowser(): Promise<void> {
  const started = shared;
  shared = undefined;
  if (started) await (await started).close();
}

/** A fresh browser context (no shared cookies or storage) against the test backend. */
export async function openBrowser(
  options: { locale?: string; colorScheme?: "light" | "dark"; javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<Session> {
  const baseURL = inject("baseURL");
  const context = await (await browser()).newContext({
    baseURL,
    locale: options.locale ?? "en-ZA",
    colorScheme: options.colorScheme ?? "light",
    viewport: options.viewport ?? { width: 1280, height: 800 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  context.setDefaultTimeout(15_000);
  const errors: string[] = [];
  context.on("weberror", (error) => errors.push(String(error.error())));
  mkdirSync(screenshots, { recursive: true });
  return {
    baseURL,
    context,
    newPage: async () => {
      const page = await context.newPage();
      page.on("pageerror", (error) => errors.push(error.message));
      return page;
    },
    close: async () => {
      await context.close();
      if (errors.length > 0) throw new Error(`errors in the page: ${errors.join("; ")}`);
    },
  };
}

export async function shoot(page: Page, name: string): Promise<void> {
  // A full-page capture of a scrolled page draws the sticky header where the view was.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

/** A capture of the window as the user sees it: a dialog over its dimmed page, none of the page below. */
export async function shootWindow(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
}

/** A capture of one part of the page, such as a card. */
export async function shootPart(locator: Locator, name: string): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  await locator.screenshot({ path: join(screenshots, `${name}.png`) });
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.co.za`;
}

export type { Browser };
