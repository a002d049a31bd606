import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, shoot, uniqueEmail, type Session } from "./browser";
import { runCommands } from "./collectionsSeed";
import { signUpFresh } from "./flows";
import { waitForMailLink } from "./mail";
import { PayPagesPage } from "./pages/CommercePages";
import { TestMode } from "./pages/DashboardPages";
import { PublicPayPage } from "./pages/PublicPayPage";
import { Shell } from "./pages/Shell";

const TITLE = "Karoo yoga monthly";

/** A mark on `window` that a reload or navigation would wipe. */
async function markStill(tab: Page): Promise<void> {
  await tab.evaluate(() => Object.assign(window, { e2eNoReload: true }));
}

async function stillMarked(tab: Page): Promise<boolean> {
  return tab.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload === true);
}

describe("a paused card payment, updated by the payer with JavaScript off", () => {
  let merchant: Session;
  let payerBrowser: Session;
  let cards: Page;
  let payerTab: Page;
  const payerEmail = uniqueEmail("card-payer");

  beforeAll(async () => {
    merchant = await openBrowser();
    cards = await merchant.newPage();
    await signUpFresh(cards, "cards-nojs");
    await new Shell(cards).waitUntilLive();
    await runCommands(cards, "test", [
      {
        t: "CreatePayPage",
        input: {
          title: TITLE,
          description: "Classes at the Karoo studio.",
          amountMode: "fixed",
          amountCents: 15000,
          kind: "recurring",
          interval: "monthly",
          methods: ["card"],
          reference: "YOGA",
          colour: "#1e3a8a",
        },
      },
    ]);
    payerBrowser = await openBrowser({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    payerTab = await payerBrowser.newPage();
  });

  afterAll(async () => {
    await payerBrowser?.close();
    await merchant?.close();
  });

  it("retries three times, pauses live, and resumes when the payer gives a new card from the mail's link", async () => {
    const pages = new PayPagesPage(cards);
    await pages.open();
    const clock = new TestMode(cards);
    await clock.switchOn();
    const row = pages.row(TITLE);
    await row.waitFor();
    const pageId = (await row.getAttribute("data-page-id")) ?? "";
    expect(pageId).toMatch(/\S+/);

    // The payer keeps a card that the issuer declines on file.
    const payer = new PublicPayPage(payerTab);
    await payer.open(pageId);
    await payer.fillCard({ name: "Sipho Dlamini", email: payerEmail, cardNumber: "4000 0000 0000 0341" });
    await payer.submit();
    await payer.waitForHeading("Payment successful");

    await cards.goto("/cards");
    await new Shell(cards).waitUntilLive();
    const card = cards.getByTestId("card-row").filter({ hasText: "Sipho Dlamini" });
    await card.locator('[data-testid="card-schedule"][data-status="active"]').waitFor();
    const cardId = (await card.getAttribute("data-card-id")) ?? "";
    const today = await clock.today();
    await markStill(cards);

    // Charged from today: refused, then tried again 3 and 7 days later.
    const before = Date.now();
    await runCommands(cards, "test", [{ t: "ScheduleCard", cardId, amountCents: 15000, interval: "monthly", reference: "YOGA", startDate: today }]);
    await clock.advance("week");
    await clock.waitUntilPlayed();
    await card.locator('[data-testid="card-schedule"][data-status="paused"]').waitFor({ timeout: 60_000 });
    expect(await stillMarked(cards)).toBe(true);
    await shoot(cards, "cards-paused-en-light");

    const mail = await waitForMailLink(payerEmail, { after: before });
    expect(mail.subject).toContain("could not charge your card");
    expect(mail.link).toContain("/card/");

    // The payer's page: no script, phone size, English then Afrikaans.
    await payerTab.goto(mail.link);
    expect(await payerTab.locator("script").count()).toBe(0);
    await payerTab.locator("h1", { hasText: "Update your card" }).waitFor();
    await shoot(payerTab, "card-update-en-light");
    await payerTab.getByRole("link", { name: "Afrikaans" }).click();
    await payerTab.locator("h1", { hasText: "Werk jou kaart by" }).waitFor();
    await shoot(payerTab, "card-update-afr-light");
    const dark = await openBrowser({ javaScriptEnabled: false, colorScheme: "dark", viewport: { width: 390, height: 844 } });
    const darkTab = await dark.newPage();
    await darkTab.goto(`${mail.link}?lang=afr`);
    await darkTab.locator("h1").first().waitFor();
    await shoot(darkTab, "card-update-afr-dark");
    await dark.close();

    // A refused card says so and keeps the link; a good one resumes the payment.
    const form = payerTab.locator("form[method=post]");
    await form.locator('[name="cardNumber"]').fill("4000 0000 0000 0002");
    await form.locator('[name="expiry"]').fill("12/30");
    await form.locator('[name="cvv"]').fill("123");
    await form.locator("button[type=submit]").click();
    await payerTab.locator('[role="alert"]', { hasText: "geweier" }).waitFor();
    await form.locator('[name="cardNumber"]').fill("4242 4242 4242 4242");
    await form.locator('[name="expiry"]').fill("12/30");
    await form.locator('[name="cvv"]').fill("123");
    await form.locator("button[type=submit]").click();
    await payerTab.locator("h1", { hasText: "Jou kaart is gestoor" }).waitFor();

    // The merchant's tab sees the new card and the payment running again, without a reload.
    await card.locator('[data-testid="card-schedule"][data-status="active"]').waitFor();
    await card.locator(".card-number", { hasText: "4242" }).waitFor();
    expect(await stillMarked(cards)).toBe(true);
    await shoot(cards, "cards-resumed-en-light");
  });
});
