import type { Page } from "playwright-core";
import { uniqueEmail, type Session } from "./browser";
import { waitForMailLink } from "./mail";
import { SignupPage, type Account } from "./pages/AuthPages";
import { TeamAdmin } from "./pages/PlacePages";
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

/**
 * The owner (signed in on `ownerPage`) invites a new person with `role`, who signs up from the
 * invite's mail in their own browser and lands home, signed in and live.
 */
export async function joinTeam(ownerPage: Page, member: Session, role: string, name: string): Promise<{ page: Page; email: string }> {
  const email = uniqueEmail(`team-${role}`);
  await new TeamAdmin(ownerPage).invite(email, role);
  const mail = await waitForMailLink(email);
  const page = await member.newPage();
  await page.goto(mail.link);
  await page.getByTestId("invite-summary").waitFor();
  await page.getByTestId("invite-name").fill(name);
  await page.getByTestId("invite-password").fill("correct-horse-battery-staple");
  await page.getByTestId("invite-sign-up").click();
  await page.waitForURL((url) => url.pathname === "/");
  await new Shell(page).waitUntilLive();
  return { page, email };
}
