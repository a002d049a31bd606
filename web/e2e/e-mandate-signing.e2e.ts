import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { inDays } from "./dates";
import { openBrowser, shoot, uniqueEmail, type Session } from "./browser";
import { runCommands } from "./collectionsSeed";
import { signUpFresh } from "./flows";
import { waitForMailContaining, waitForMailLink } from "./mail";
import { PayPagesPage } from "./pages/CommercePages";
import { TestMode } from "./pages/DashboardPages";
import { Shell } from "./pages/Shell";

/** A valid South African ID number (1 January 1980). */
const ID_NUMBER = "8001015009087";

const PAYERS = [
  { language: "en", name: "Thandi Nkosi", email: "thandi.signing@example.co.za", scheme: "light" },
  { language: "afr", name: "Pieter Botha", email: "pieter.signing@example.co.za", scheme: "dark" },
] as const;

describe("a payer signs an e-mandate with JavaScript off, while the merchant watches live", () => {
  let merchantSession: Session;
  let merchant: Page;
  // A second tab of the merchant's on the recurring payments list.
  let recurring: Page;

  beforeAll(async () => {
    merchantSession = await openBrowser({ colorScheme: "light" });
    merchant = await merchantSession.newPage();
    await signUpFresh(merchant, "e-signing");
    await merchant.goto("/payments/e-mandates");
    const shell = new Shell(merchant);
    await shell.waitUntilLive();
    await shell.chooseMode("test");
    await shell.waitUntilLive();
    recurring = await merchantSession.newPage();
    await recurring.goto("/payments/recurring");
    const other = new Shell(recurring);
    await other.waitUntilLive();
    await other.chooseMode("test");
    await other.waitUntilLive();
  });

  afterAll(async () => {
    await merchantSession?.close();
  });

  function row(name: string) {
    return merchant.locator('[data-testid="e-mandate-request-row"]', { hasText: name });
  }

  for (const payer of PAYERS) {
    it(`completes a DebiCheck request in ${payer.language}`, { timeout: 120_000 }, async () => {
      const sentAt = Date.now();
      await runCommands(merchant, "test", [
        {
          t: "RequestEMandate",
          input: {
            name: payer.name,
            email: payer.email,
            cellphone: "082 555 0101",
            language: payer.language,
            method: "debicheck",
            amountCents: 50_000,
            maxCents: 60_000,
            interval: "monthly",
            startDate: inDays(10),
            // The English payer may choose the amount (up to the maximum) on the terms step.
            payerMayChange: payer.language === "en" ? ["amount"] : [],
          },
        },
      ]);
      await row(payer.name).locator('[data-testid="e-mandate-request-state"][data-state="sent"]').waitFor();
      // The merchant can show the link as a QR code for a payer at the counter.
      await row(payer.name).getByTestId("e-mandate-qr-button").click();
      await merchant.getByTestId("e-mandate-qr").waitFor();
      if (payer.language === "en") await shoot(merchant, "e-mandate-qr-en-light");
      await merchant.keyboard.press("Escape");
      await merchant.getByTestId("e-mandate-qr-dialog").waitFor({ state: "detached" });

      // The payer: a phone-sized browser of their own, no JavaScript at all.
      const payerSession = await openBrowser({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, colorScheme: payer.scheme });
      const tab = await payerSession.newPage();
      const mail = await waitForMailLink(payer.email, { after: sentAt - 1_000 });
      expect(mail.link).toContain("/mandate/");
      await tab.goto(mail.link);
      await row(payer.name).locator('[data-testid="e-mandate-request-state"][data-state="opened"]').waitFor();
      const suffix = `${payer.language}-${payer.scheme}`;

      // Step 1: a wrong ID number is shown beside its field, the answers kept.
      await tab.locator('input[name="payerKind"][value="person"]').check();
      await tab.locator("#idNumber").fill("8001015009088");
      await tab.locator("#cellphone").fill("082 555 0101");
      await tab.locator('form button[type="submit"]').first().click();
      await tab.locator("#idNumber-error").waitFor();
      expect(await tab.locator("#name").inputValue()).toBe(payer.name);
      await shoot(tab, `e-mandate-sign-error-${suffix}`);
      await tab.locator("#idNumber").fill(ID_NUMBER);
      await shoot(tab, `e-mandate-sign-details-${suffix}`);
      await tab.locator('form button[type="submit"]').first().click();

      // Step 2: the bank account.
      await tab.locator("#branchCode").waitFor();
      await tab.locator("#bank").selectOption("fnb");
      await tab.locator("#branchCode").fill("250655");
      await tab.locator("#accountType").selectOption("current");
      await tab.locator("#accountNumber").fill("4100000001");
      await shoot(tab, `e-mandate-sign-bank-${suffix}`);
      await tab.locator('form button[type="submit"]').first().click();

      // Step 3: the terms in plain words, and consent.
      await tab.locator("#consent").waitFor();
      expect(await tab.locator("dl").innerText()).toContain("R\u00a0500,00");
      expect(await tab.locator("#amount").count()).toBe(payer.language === "en" ? 1 : 0);
      if (payer.language === "en") {
        // Above the maximum: refused beside the field, the answer kept.
        await tab.locator("#amount").fill("700");
        await tab.locator("#consent").check();
        await tab.locator('form button[type="submit"]').first().click();
        await tab.locator("#amount-error").waitFor();
        expect(await tab.locator("#amount").inputValue()).toBe("700");
        await shoot(tab, `e-mandate-sign-amount-error-${suffix}`);
        await tab.locator("#amount").fill("500.00");
      }
      await tab.locator("#consent").check();
      await shoot(tab, `e-mandate-sign-consent-${suffix}`);
      await tab.locator('form button[type="submit"]').first().click();

      // The bank asks; the page refreshes itself while the payer opens the banking app.
      await tab.locator('meta[http-equiv="refresh"]').waitFor({ state: "attached" });
      await shoot(tab, `e-mandate-sign-wait-${suffix}`);
      await tab.locator('a[href*="/bank"]').click();
      await tab.locator('button[value="approve"]').waitFor();
      await shoot(tab, `e-mandate-sign-bank-app-${suffix}`);
      await tab.locator('button[value="approve"]').click();
      await tab.locator("h1").waitFor();
      const done = await tab.locator("main").innerText();
      expect(done).toContain(payer.email);
      await shoot(tab, `e-mandate-sign-done-${suffix}`);

      // The merchant's tab sees it completed, with the mandate, without a reload.
      await row(payer.name).locator('[data-testid="e-mandate-request-state"][data-state="completed"]').waitFor();
      await row(payer.name).getByTestId("e-mandate-request-mandate").waitFor();
      // The recurring payments tab gets the new payment live too, without a reload.
      await recurring.locator('[data-testid="payment-row"]', { hasText: payer.name }).waitFor();
      // The confirmation mail with the terms, in the payer's language.
      const confirmation = await waitForMailContaining(payer.email, payer.language === "en" ? "You signed a DebiCheck" : "Jy het 'n DebiCheck-debietordermandaat");
      expect(confirmation.subject).toContain(payer.language === "en" ? "is set up" : "is opgestel");
      expect(confirmation.text).toContain(payer.language === "en" ? "R\u00a0500,00 every month" : "R\u00a0500,00 elke maand");
      await payerSession.close();
    });
  }

  it("shows the completed requests", async () => {
    await shoot(merchant, "e-mandate-requests-completed-en-light");
  });
});

describe("a recurring pay page offering DebiCheck, signed with JavaScript off", () => {
  const TITLE = "Karoo gym monthly";
  let merchantSession: Session;
  let merchant: Page;

  beforeAll(async () => {
    merchantSession = await openBrowser({ colorScheme: "light" });
    merchant = await merchantSession.newPage();
    await signUpFresh(merchant, "page-debicheck");
    await new Shell(merchant).waitUntilLive();
    await runCommands(merchant, "test", [
      {
        t: "CreatePayPage",
        input: {
          title: TITLE,
          description: "Membership at the Karoo gym.",
          amountMode: "fixed",
          amountCents: 35_000,
          kind: "recurring",
          interval: "monthly",
          methods: ["card", "debicheck"],
          reference: "GYM",
          colour: "#1e3a8a",
        },
      },
    ]);
  });

  afterAll(async () => {
    await merchantSession?.close();
  });

  it("takes the payer from the page's DebiCheck tab to an approved mandate", { timeout: 120_000 }, async () => {
    const pages = new PayPagesPage(merchant);
    await pages.open();
    await new TestMode(merchant).switchOn();
    const pageRow = pages.row(TITLE);
    await pageRow.waitFor();
    const pageId = (await pageRow.getAttribute("data-page-id")) ?? "";
    expect(pageId).toMatch(/\S+/);
    await merchant.goto("/payments/recurring");
    await new Shell(merchant).waitUntilLive();

    const payerSession = await openBrowser({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const tab = await payerSession.newPage();
    const email = uniqueEmail("gym-payer");
    await tab.goto(`/pay/${pageId}?method=debicheck`);
    await tab.getByRole("button", { name: "Sign a debit order" }).click();

    await tab.locator('input[name="payerKind"][value="person"]').check();
    await tab.locator("#name").fill("Lindiwe Zulu");
    await tab.locator("#idNumber").fill(ID_NUMBER);
    await tab.locator("#cellphone").fill("082 555 0101");
    await tab.locator("#email").fill(email);
    await tab.locator('form button[type="submit"]').first().click();
    await tab.locator("#branchCode").waitFor();
    await tab.locator("#bank").selectOption("fnb");
    await tab.locator("#branchCode").fill("250655");
    await tab.locator("#accountType").selectOption("current");
    await tab.locator("#accountNumber").fill("4100000001");
    await tab.locator('form button[type="submit"]').first().click();
    await tab.locator("#consent").waitFor();
    expect(await tab.locator("dl").innerText()).toContain("R\u00a0350,00");
    await tab.locator("#consent").check();
    await tab.locator('form button[type="submit"]').first().click();

    await tab.locator('meta[http-equiv="refresh"]').waitFor({ state: "attached" });
    await tab.locator('a[href*="/bank"]').click();
    await tab.locator('button[value="approve"]').click();
    await tab.locator("h1").waitFor();
    expect(await tab.locator("main").innerText()).toContain(email);
    await shoot(tab, "pay-page-debicheck-done-en-light");

    // The merchant's recurring payments tab shows the new payment live.
    await merchant.locator('[data-testid="payment-row"]', { hasText: "Lindiwe Zulu" }).waitFor();
    await payerSession.close();
  });
});
