import type { Page } from "playwright-core";
import { uniqueEmail } from "./browser";
import { SignupPage, type Account } from "./pages/AuthPages";
import { Shell } from "./pages/Shell";

export function newAccount(prefix: string): Account {
  return {
    name: "Thandi Nkosi",
    businessName: `Karoo Gym ${prefix}`,
    email: uniqueEmail(prefix),
    password: "correct-horse-battery-staple",
  };
}

/** Signs up a fresh account (its business named `businessName` if given) and waits until the dashboard is live. */
export async function signUpFresh(page: Page, prefix: string, businessName?: string): Promise<Account> {
  const account = { ...newAccount(prefix), ...(businessName ? { businessName } : {}) };
  const signup = new SignupPage(page);
  await signup.open();
  await signup.signUp(account);
  await page.waitForURL((url) => url.pathname === "/");
  await new Shell(page).waitUntilLive();
  return account;
}
