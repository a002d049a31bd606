import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { inDays } from "./dates";
import { openBrowser, shoot, type Session } from "./browser";
import { runCommands } from "./collectionsSeed";
import { signUpFresh } from "./flows";
import { PaymentDetailPage, PaymentsListPage } from "./pages/CollectionPages";
import { WebhooksPages } from "./pages/DeveloperPages";
import { Shell } from "./pages/Shell";

type Received = { headers: IncomingHttpHeaders; body: string };

/** A webhook receiver on this machine: keeps every request and answers 200. */
async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"received":true}');
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received, server };
}

// The Standard Webhooks check: some `v1,` signature of the header is the HMAC of id.timestamp.body.
function signedWith(secret: string, got: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const content = `${String(got.headers["webhook-id"])}.${String(got.headers["webhook-timestamp"])}.${got.body}`;
  const expected = createHmac("sha256", key).update(content).digest("base64");
  return String(got.headers["webhook-signature"])
    .split(" ")
    .some((entry) => entry === `v1,${expected}`);
}

async function until(check: () => boolean): Promise<void> {
  // Polls the receiver (a Node object, not the page) until the server's job has delivered.
  for (let tries = 0; tries < 200 && !check(); tries++) await new Promise((done) => setTimeout(done, 100));
  expect(check()).toBe(true);
}

describe("developers: webhook endpoints and their live delivery log, the integrations page", () => {
  let session: Session;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let endpointPath = "";

  beforeAll(async () => {
    receiver = await startReceiver();
    session = await openBrowser({ colorScheme: "light" });
    const page = await session.newPage();
    await signUpFresh(page, "webhooks");
    await runCommands(page, "test", [
      {
        t: "CreateCustomer",
        input: {
          name: "Lerato Khumalo",
          email: "lerato@example.co.za",
          cellphone: "+27821234567",
          idType: "south_african_id",
          idNumber: "8801235111088",
          addressLine1: "",
          addressLine2: "",
          city: "",
          postalCode: "",
          reference: "LK-001",
        },
      },
    ]);
    await page.close();
  });

  afterAll(async () => {
    await session?.close();
    receiver?.server.close();
  });

  async function inTestMode(page: Page): Promise<void> {
    const shell = new Shell(page);
    await shell.waitUntilLive();
    await shell.chooseMode("test");
    await page.locator("header.header-test").waitFor();
    await shell.waitUntilLive();
  }

  it("adds an endpoint, sees a payment's delivery arrive live, resends it and rolls the secret", { timeout: 120_000 }, async () => {
    const hooksTab = await session.newPage();
    const webhooks = new WebhooksPages(hooksTab);
    await webhooks.open();
    await inTestMode(hooksTab);
    await hooksTab.getByTestId("webhooks-empty").waitFor();

    // The secret is shown once, in the dialog that added the endpoint.
    const secret = await webhooks.add(receiver.url, "Karoo shop", ["payment.created"]);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    await shoot(hooksTab, "webhook-secret-en-light");
    await webhooks.closeSecret();
    await webhooks.row(receiver.url).locator('[data-testid="webhook-state"][data-state="enabled"]').waitFor();
    await hooksTab.reload();
    await webhooks.row(receiver.url).waitFor();
    expect(await hooksTab.content()).not.toContain(secret);

    await webhooks.row(receiver.url).getByTestId("webhook-link").click();
    await hooksTab.getByTestId("webhook-log-empty").waitFor();
    endpointPath = new URL(hooksTab.url()).pathname;
    expect(endpointPath).toMatch(/^\/developers\/webhooks\/whe_/);

    // Another tab creates a payment; the endpoint page shows its delivery without a reload.
    const paymentsTab = await session.newPage();
    const payments = new PaymentsListPage(paymentsTab, "recurring");
    await payments.open();
    await inTestMode(paymentsTab);
    await payments.createRecurringDebiCheck({
      customerSearch: "Lerato",
      customerName: "Lerato Khumalo",
      bank: "absa",
      accountNumber: "4100000001",
      contractReference: "GYM2026LK",
      maximumCollection: "400",
      amount: "299.90",
      startDate: inDays(7),
      dayToProcess: "31",
    });
    await new PaymentDetailPage(paymentsTab).waitForIt();

    await hooksTab.bringToFront();
    const delivery = webhooks.delivery("payment.created");
    await delivery.locator('[data-testid="webhook-delivery-state"][data-state="delivered"]').waitFor();
    expect(await delivery.getByTestId("webhook-delivery-status").textContent()).toBe("200");
    await until(() => receiver.received.length === 1);
    const first = receiver.received[0];
    expect(JSON.parse(first.body).type).toBe("payment.created");
    expect(signedWith(secret, first)).toBe(true);

    // The request as sent, and the answer.
    await delivery.getByTestId("webhook-delivery-toggle").click();
    const detail = hooksTab.getByTestId("webhook-delivery-detail");
    expect(await detail.getByTestId("webhook-request-headers").textContent()).toContain(`webhook-id: ${String(first.headers["webhook-id"])}`);
    expect(await detail.getByTestId("webhook-response").textContent()).toContain('{"received":true}');
    await shoot(hooksTab, "webhook-endpoint-en-light");

    // Resent: the same event again, the log's attempts go up live.
    await delivery.getByTestId("webhook-delivery-resend").click();
    await delivery.locator('[data-testid="webhook-delivery-attempts"]', { hasText: "2" }).waitFor();
    await until(() => receiver.received.length === 2);
    expect(receiver.received[1].headers["webhook-id"]).toBe(first.headers["webhook-id"]);

    // Rolled: a new secret, once; a test event is signed with both.
    await hooksTab.getByTestId("webhook-roll").click();
    await hooksTab.getByTestId("confirm-action").click();
    const rolled = (await hooksTab.getByTestId("webhook-rolled").getByTestId("webhook-secret-value").textContent()) ?? "";
    expect(rolled).toMatch(/^whsec_/);
    expect(rolled).not.toBe(secret);
    await shoot(hooksTab, "webhook-rolled-en-light");
    await hooksTab.getByTestId("webhook-secret-done").click();
    await hooksTab.getByTestId("webhook-previous-secret").waitFor();
    await hooksTab.getByTestId("webhook-send-test").click();
    await webhooks.delivery("webhook.test").locator('[data-testid="webhook-delivery-state"][data-state="delivered"]').waitFor();
    await until(() => receiver.received.length === 3);
    expect(signedWith(rolled, receiver.received[2])).toBe(true);
    expect(signedWith(secret, receiver.received[2])).toBe(true);
    await paymentsTab.close();
    await hooksTab.close();
  });

  it("creates an API token and sees its secret once, then rolls and revokes it", { timeout: 90_000 }, async () => {
    const page = await session.newPage();
    await page.goto("/developers/tokens");
    await page.getByTestId("api-tokens-page").waitFor();
    await inTestMode(page);
    await page.getByTestId("api-tokens-empty").waitFor();

    await page.getByTestId("api-token-create").click();
    const dialog = page.getByTestId("api-token-dialog");
    // A name is required: the server's refusal shows beside it.
    await dialog.getByTestId("api-token-submit").click();
    await dialog.locator('[data-testid="api-token-name"][aria-invalid="true"]').waitFor();
    await dialog.getByTestId("api-token-name").fill("Shop server");
    await dialog.getByTestId("api-token-access-customers").selectOption("write");
    await dialog.getByTestId("api-token-access-payments").selectOption("read");
    await dialog.getByTestId("api-token-addresses").fill("203.0.113.7, 198.51.100.0/24");
    await shoot(page, "api-token-form-en-light");
    await dialog.getByTestId("api-token-submit").click();
    const secret = (await dialog.getByTestId("api-token-secret-value").textContent()) ?? "";
    expect(secret).toMatch(/^pdk_test_[0-9A-Za-z]{20,}$/);
    await shoot(page, "api-token-secret-en-light");
    await dialog.getByTestId("api-token-secret-done").click();

    // Listed by its prefix only; the secret is nowhere on the page, also after a reload.
    const row = page.getByTestId("api-token-row").filter({ hasText: "Shop server" });
    await row.locator('[data-testid="api-token-state"][data-state="active"]').waitFor();
    const prefix = ((await row.getByTestId("api-token-prefix").textContent()) ?? "").replace("…", "");
    expect(secret.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(secret.length);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);

    // Rolled: a new secret, once; the old one keeps working for the chosen grace period.
    await row.getByTestId("api-token-roll").click();
    await page.getByTestId("api-token-grace").selectOption("24");
    await page.getByTestId("api-token-roll-confirm").click();
    const rolled = (await page.getByTestId("api-token-rolled").getByTestId("api-token-secret-value").textContent()) ?? "";
    expect(rolled).toMatch(/^pdk_test_/);
    expect(rolled).not.toBe(secret);
    await page.getByTestId("api-token-secret-done").click();

    // On a phone the row's actions stack beside the token, on screen, not past the table's edge.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await row.getByTestId("api-token-revoke").waitFor();
    expect(await page.evaluate(() => document.scrollingElement?.scrollLeft)).toBe(0);
    for (const action of ["api-token-roll", "api-token-revoke"]) {
      const box = await row.getByTestId(action).boundingBox();
      expect(box && box.x + box.width, action).toBeLessThanOrEqual(390);
    }
    await shoot(page, "api-tokens-phone-en-light");
    await page.setViewportSize({ width: 1280, height: 800 });

    // Revoked at once.
    await row.getByTestId("api-token-revoke").click();
    await page.getByTestId("confirm-action").click();
    await row.locator('[data-testid="api-token-state"][data-state="revoked"]').waitFor();
    await shoot(page, "api-tokens-en-light");
    await page.close();
  });

  for (const [language, theme] of [
    ["en", "light"],
    ["afr", "dark"],
  ] as const) {
    it(`draws the developer screens in ${language} ${theme}`, { timeout: 120_000 }, async () => {
      expect(endpointPath).not.toBe("");
      const page = await session.newPage();
      const webhooks = new WebhooksPages(page);
      await webhooks.open();
      const shell = new Shell(page);
      await inTestMode(page);
      await shell.chooseLanguage(language);
      await shell.chooseTheme(theme);
      await webhooks.row(receiver.url).waitFor();
      await shoot(page, `webhooks-${language}-${theme}`);
      await page.getByTestId("webhook-add").click();
      await page.getByTestId("webhook-endpoint-form").waitFor();
      await shoot(page, `webhook-add-${language}-${theme}`);
      await page.keyboard.press("Escape");

      await page.goto(endpointPath);
      await webhooks.delivery("payment.created").waitFor();
      await webhooks.delivery("payment.created").getByTestId("webhook-delivery-toggle").click();
      await shoot(page, `webhook-endpoint-${language}-${theme}`);

      await page.goto("/developers/tokens");
      await page.getByTestId("api-tokens-page").waitFor();
      await page.getByTestId("api-token-create").click();
      await page.getByTestId("api-token-form").waitFor();
      await shoot(page, `api-token-form-${language}-${theme}`);
      await page.keyboard.press("Escape");
      await shoot(page, `api-tokens-${language}-${theme}`);

      await page.goto("/developers/integrations");
      await page.getByTestId("quick-starts").waitFor();
      await page.getByTestId("integration-webhooks").getByText("1", { exact: false }).waitFor();
      await page.getByTestId("quick-start-language-python").click();
      expect(await page.getByTestId("quick-start-code").textContent()).toContain(`${session.baseURL}/api/v1`);
      await shoot(page, `integrations-${language}-${theme}`);
      await page.close();
    });
  }

  it("downloads the accounting export as a CSV from the integrations page", async () => {
    const page = await session.newPage();
    await page.goto("/developers/integrations");
    await inTestMode(page);
    await page.getByTestId("export-from").fill("2026-01-01");
    await page.getByTestId("export-to").fill("2026-01-31");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-download").click()]);
    expect(download.suggestedFilename()).toBe("paydesk-test-2026-01-01-2026-01-31.csv");
    const path = await download.path();
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(path, "utf8").split("\n")[0]).toBe("Date,Amount,Payee,Description,Reference");
    await page.close();
  });
});
