import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openBrowser, shootWindow, uniqueEmail } from "./browser";
import { eftDebitOrder } from "./collectionsSeed";
import { createRecord, runQuery } from "./dashboardSeed";
import { joinTeam, signUpFresh } from "./flows";
import { waitForMailContaining } from "./mail";
import { TestMode } from "./pages/DashboardPages";
import { Shell } from "./pages/Shell";
import { customerInput } from "./seed";
import type { Transaction } from "../src/protocol/wire";

function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function isWeekend(iso: string): boolean {
  const day = new Date(`${iso}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6;
}

async function transaction(page: Page, id: string): Promise<Transaction> {
  const reply = await runQuery(page, "test", { t: "GetTransaction", transactionId: id });
  if (reply.t !== "Transaction") throw new Error(`no transaction ${id}: ${JSON.stringify(reply)}`);
  return reply.transaction;
}

async function unpaidOf(page: Page, paymentId: string): Promise<Transaction> {
  const reply = await runQuery(page, "test", { t: "ListTransactions", filter: { paymentId, status: "unpaid" }, sort: "newest" });
  if (reply.t !== "TransactionPage" || reply.items.length === 0) throw new Error(`no unpaid of ${paymentId}`);
  return reply.items[0];
}

/** A tab of `page`'s session on test data at `path`, live. */
async function openOnTestData(page: Page, path: string): Promise<void> {
  await page.goto("/home");
  await new Shell(page).waitUntilLive();
  await new TestMode(page).switchOn();
  await page.goto(path);
  await new Shell(page).waitUntilLive();
}

describe("following up unpaid debit orders, in test mode", () => {
  it("presents an unpaid again on a chosen day, sends a pay link, asks for a new mandate and mails the payer, live on a teammate's screen", { timeout: 180_000 }, async () => {
    const session = await openBrowser();
    // The teammate reads in Afrikaans, dark, on a phone; as a Viewer they may not act.
    const theirs = await openBrowser({ locale: "af-ZA", colorScheme: "dark", viewport: { width: 390, height: 844 } });
    try {
      const page = await session.newPage();
      await signUpFresh(page, "unpaids");
      const clock = new TestMode(page);
      await clock.switchOn();
      const start = await clock.today();
      const payer = uniqueEmail("payer");
      const customerId = await createRecord(page, "test", { t: "CreateCustomer", input: customerInput("Lindiwe Zulu", payer) });
      // An unpaid 02 (insufficient funds) once-off, and a weekly schedule whose first debit comes back 12 (account closed).
      const onceId = await createRecord(page, "test", {
        t: "CreatePayment",
        input: eftDebitOrder({ customerId, accountNumber: "4000000002", amountCents: 25_000, date: addDays(start, 3), kind: "once", reference: "LZ-ONCE" }),
      });
      const weeklyId = await createRecord(page, "test", {
        t: "CreatePayment",
        input: eftDebitOrder({ customerId, accountNumber: "4000000012", amountCents: 40_000, date: addDays(start, 1), kind: "recurring", reference: "LZ-WEEKLY" }),
      });
      await page.goto("/payments/transactions");
      await new Shell(page).waitUntilLive();
      for (let week = 0; week < 2; week += 1) {
        await clock.advance("week");
        await clock.waitUntilPlayed();
      }
      const short = await unpaidOf(page, onceId);
      const closed = await unpaidOf(page, weeklyId);
      expect([short.unpaidCode, closed.unpaidCode]).toEqual(["02", "12"]);
      const today = await clock.today();

      const { page: viewer } = await joinTeam(page, theirs, "viewer", "Pieter Botha");
      await openOnTestData(viewer, `/payments/transactions/${short.id}`);
      await viewer.getByTestId("unpaid-follow-ups").waitFor();
      await expect.poll(() => viewer.getByTestId("follow-up-Represent").getAttribute("aria-disabled")).toBe("true");

      // From the list of unpaids: the row's menu presents the 02 again.
      await page.goto("/payments/transactions");
      await new Shell(page).waitUntilLive();
      await page.getByTestId("show-unpaids").click();
      await expect.poll(() => page.getByTestId("transaction-row").count()).toBe(2);
      await shootWindow(page, "unpaids-list-en-light");
      const row = page.locator(`[data-transaction-id="${short.id}"]`);
      await row.getByTestId("follow-up-menu").click();
      await page.getByTestId("follow-up-item-Represent").click();
      const dialog = page.getByTestId("follow-up-dialog");
      await dialog.waitFor();
      // A weekend is refused, in words.
      let weekend = addDays(today, 1);
      while (!isWeekend(weekend)) weekend = addDays(weekend, 1);
      await dialog.getByTestId("follow-up-date").fill(weekend);
      await dialog.getByTestId("follow-up-submit").click();
      await dialog.getByText("Choose a business day: not a weekend or public holiday.").waitFor();
      await shootWindow(page, "unpaid-represent-dialog-en-light");
      // The first weekday the bank takes (a public holiday is refused too, so the next is tried).
      let chosen = addDays(today, 1);
      let sentAt = 0;
      for (let tries = 0; tries < 6; tries += 1) {
        while (isWeekend(chosen)) chosen = addDays(chosen, 1);
        await dialog.getByTestId("follow-up-date").fill(chosen);
        sentAt = Date.now();
        await dialog.getByTestId("follow-up-submit").click();
        const closedNow = await dialog.waitFor({ state: "detached", timeout: 3_000 }).then(
          () => true,
          () => false,
        );
        if (closedNow) break;
        chosen = addDays(chosen, 1);
      }
      // The teammate's screen shows it without a reload.
      await viewer.locator('[data-testid="follow-up-line"][data-kind="represented"]').waitFor();
      console.log(`a re-presentation reached the teammate's screen ${Date.now() - sentAt} ms after the press`);
      const payment = await runQuery(page, "test", { t: "GetPayment", paymentId: onceId });
      expect(payment.t === "Payment" && payment.payment.representationDate).toBe(chosen);
      expect((await transaction(page, short.id)).followUps?.map((f) => [f.kind, f.date])).toEqual([["represented", chosen]]);
      await shootWindow(viewer, "unpaid-follow-ups-viewer-afr-dark-phone");

      // On the 12's page: a pay link, mailed in Afrikaans, and a new mandate asked for.
      await page.goto(`/payments/transactions/${closed.id}`);
      await page.getByTestId("unpaid-follow-ups").waitFor();
      expect(await page.getByTestId("follow-up-Represent").count()).toBe(0);
      await page.getByTestId("follow-up-SendPayLink").click();
      await dialog.getByTestId("follow-up-language").selectOption("afr");
      await dialog.getByTestId("follow-up-submit").click();
      await dialog.waitFor({ state: "detached" });
      await page.locator('[data-testid="follow-up-line"][data-kind="pay_link_sent"]').waitFor();
      const linkMail = await waitForMailContaining(payer, "/pay/");
      expect(linkMail.text).toContain("onbetaal");
      const pageId = (await transaction(page, closed.id)).followUps?.[0]?.payPageId ?? "";
      const payPage = await runQuery(page, "test", { t: "GetPayPage", pageId });
      expect(payPage.t === "PayPage" && [payPage.page.amountCents, payPage.page.maxUses, payPage.page.reference]).toEqual([40_000, 1, closed.reference]);
      expect(linkMail.text).toContain(`/pay/${pageId}`);

      await page.getByTestId("follow-up-RequestMandate").click();
      await dialog.getByTestId("follow-up-submit").click();
      await dialog.waitFor({ state: "detached" });
      await page.locator('[data-testid="follow-up-line"][data-kind="mandate_requested"]').waitFor();
      await waitForMailContaining(payer, "asks you to sign a");
      const requestId = (await transaction(page, closed.id)).followUps?.[1]?.eMandateRequestId;
      const requests = await runQuery(page, "test", { t: "ListEMandateRequests" });
      expect(requests.t === "EMandateRequestPage" && requests.items.find((r) => r.id === requestId)?.customerId).toBe(customerId);
      await shootWindow(page, "unpaid-follow-ups-en-light");

      // A message to the payer: one is needed, then it is mailed.
      await page.goto(`/payments/transactions/${short.id}`);
      await page.getByTestId("follow-up-EmailPayer").click();
      await dialog.getByTestId("follow-up-submit").click();
      await dialog.getByText("This field is required.").waitFor();
      await dialog.getByTestId("follow-up-message").fill("Please make sure the money is in your account by Friday.");
      await dialog.getByTestId("follow-up-submit").click();
      await dialog.waitFor({ state: "detached" });
      await waitForMailContaining(payer, "Please make sure the money is in your account by Friday.");
      await viewer.locator('[data-testid="follow-up-line"][data-kind="payer_emailed"]').waitFor();
    } finally {
      await theirs.close();
      await session.close();
    }
  });
});
