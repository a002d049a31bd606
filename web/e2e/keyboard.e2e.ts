import { describe, expect, it } from "vitest";
import { openBrowser, shootWindow } from "./browser";
import { eftDebitOrder } from "./collectionsSeed";
import { createRecord } from "./dashboardSeed";
import { signUpFresh } from "./flows";
import { inDays } from "./importsCsv";
import { PaymentDetailPage } from "./pages/CollectionPages";
import { TestMode } from "./pages/DashboardPages";
import { byTestId, Keyboard } from "./pages/Keyboard";
import { Shell } from "./pages/Shell";
import { customerInput } from "./seed";

describe("the keyboard alone", () => {
  // No click from here on: Tab, Shift+Tab, Enter, Space and the arrow keys, with the focus in
  // sight at every stop.
  it("signs in and makes a new payment", { timeout: 90_000 }, async () => {
    const session = await openBrowser();
    try {
      const page = await session.newPage();
      const account = await signUpFresh(page, "keys");
      await new TestMode(page).switchOn();
      const customerId = await createRecord(page, "test", { t: "CreateCustomer", input: customerInput("Ayanda Khumalo", "ayanda@example.co.za") });
      await createRecord(page, "test", {
        t: "CreatePayment",
        input: eftDebitOrder({ customerId, accountNumber: "4000000001", amountCents: 25_000, date: inDays(3), kind: "once", reference: "KEYS-FIRST" }),
      });
      await new Shell(page).signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");

      const keys = new Keyboard(page);
      await page.goto("/auth/login");
      await page.getByTestId("login-page").waitFor();
      await keys.tabTo('input[type="email"]');
      await keys.type(account.email);
      await keys.press("Tab");
      await keys.expectVisibleFocus();
      await keys.type(account.password);
      await keys.press("Enter");
      await page.waitForURL((url) => url.pathname === "/");
      await new Shell(page).waitUntilLive();

      await page.goto("/payments/one-time");
      await page.getByTestId("payments-page-once").waitFor();
      await new Shell(page).waitUntilLive();
      await keys.tabTo(byTestId("new-payment"));
      await keys.press("Enter");
      const dialog = page.getByTestId("new-payment-dialog");
      await dialog.waitFor();
      await keys.tabTo(byTestId("customer-picker-search"));
      await keys.type("Ayanda");
      await dialog.getByTestId("customer-option").filter({ hasText: "Ayanda Khumalo" }).waitFor();
      await keys.tabTo(byTestId("customer-option"));
      await keys.press("Enter");
      await shootWindow(page, "keyboard-new-payment-en-light");
      await keys.tabTo(byTestId("payment-amount-input"));
      await keys.type("75");
      await keys.tabTo(byTestId("payment-dateToProcess"));
      await keys.typeDate(inDays(5));
      expect(await dialog.getByTestId("payment-dateToProcess").inputValue()).toBe(inDays(5));
      await keys.tabTo(byTestId("payment-submit"));
      await shootWindow(page, "keyboard-new-payment-filled-en-light");
      await keys.press("Enter");
      await new PaymentDetailPage(page).waitForIt();
      expect(page.url()).toMatch(/\/payments\/one-time\/pay_/);
      await page.getByTestId("payment-detail").getByText("R 75,00").first().waitFor();
    } finally {
      await session.close();
    }
  });
});
