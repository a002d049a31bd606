import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openBrowser, shootWindow } from "./browser";
import { eftDebitOrder } from "./collectionsSeed";
import { createRecord } from "./dashboardSeed";
import { inDays } from "./dates";
import { signUpFresh } from "./flows";
import { TestMode } from "./pages/DashboardPages";
import { SearchBox } from "./pages/SearchBox";
import { Shell } from "./pages/Shell";
import { customerInput } from "./seed";

const PHONE = { width: 360, height: 780 };

/** A customer with a once-off debit order in test mode: the customer's and the payment's ids. */
async function seed(page: Page): Promise<{ customerId: string; paymentId: string }> {
  const customerId = await createRecord(page, "test", { t: "CreateCustomer", input: customerInput("Ayanda Mokoena", "ayanda.mokoena@example.co.za") });
  const paymentId = await createRecord(page, "test", {
    t: "CreatePayment",
    input: eftDebitOrder({ customerId, accountNumber: "4000555123", amountCents: 25_000, date: inDays(3), kind: "once", reference: "SRCH-GYM-1" }),
  });
  return { customerId, paymentId };
}

describe("the search box", () => {
  it("opens with / or Ctrl+K, finds records grouped by kind and opens one with the keyboard", { timeout: 90_000 }, async () => {
    const session = await openBrowser();
    try {
      const page = await session.newPage();
      await signUpFresh(page, "search");
      await new TestMode(page).switchOn();
      const { customerId, paymentId } = await seed(page);
      const search = new SearchBox(page);

      await search.openWith("/");
      await expect(search.input().evaluate((input) => input === document.activeElement)).resolves.toBe(true);
      await search.type("M");
      await expect(search.status().textContent()).resolves.toBe("Type at least 2 characters to search.");
      await search.type("zzqq");
      await page.getByText("Nothing found for “zzqq”.").waitFor();

      // The customer's name finds the customer and what is collected from them, grouped.
      await search.search("mokoena");
      await search.group("customer").waitFor();
      await search.group("payment").waitFor();
      await search.group("mandate").waitFor();
      await shootWindow(page, "search-en-light-desktop");
      await expect(search.group("customer").textContent()).resolves.toContain("Customers");
      await expect(search.selected().getAttribute("data-id")).resolves.toBe(customerId);
      await page.keyboard.press("ArrowDown");
      await expect(search.selected().getAttribute("data-id")).resolves.toBe(paymentId);
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === `/payments/one-time/${paymentId}` && url.searchParams.get("mode") === "test");
      await search.dialog().waitFor({ state: "detached" });

      // Ctrl+K from the payment's screen; the account number's last digits find the customer.
      await search.openWith("Control+k");
      await search.search("555123");
      await expect(search.group("customer").textContent()).resolves.toContain("Account ending 5123");
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === `/customers/${customerId}`);
      await page.getByTestId("customer-detail").waitFor();

      // Escape closes; "/" typed into a field is a character, not the shortcut.
      await search.openWith("/");
      await page.keyboard.press("Escape");
      await search.dialog().waitFor({ state: "detached" });
      await page.goto("/customers?mode=test");
      const filter = page.locator('input[type="search"]').first();
      await filter.focus();
      await page.keyboard.type("a/b");
      await expect(filter.inputValue()).resolves.toBe("a/b");
      await expect(search.dialog().count()).resolves.toBe(0);
    } finally {
      await session.close();
    }
  });

  it("fits a phone, in English light and Afrikaans dark", { timeout: 90_000 }, async () => {
    const session = await openBrowser({ viewport: PHONE });
    try {
      const page = await session.newPage();
      await signUpFresh(page, "search-phone");
      await new TestMode(page).switchOn();
      await seed(page);
      const search = new SearchBox(page);
      // The header keeps room for the search button beside the others.
      await shootWindow(page, "search-phone-header");
      const header = await page.locator("header").evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth, menu: element.querySelector('[data-testid="user-menu"]')?.getBoundingClientRect().right ?? 0 }));
      expect(header.scroll, JSON.stringify(header)).toBeLessThanOrEqual(header.client);
      expect(header.menu).toBeLessThanOrEqual(PHONE.width);

      await search.openWith("/");
      await search.search("mokoena");
      await search.group("mandate").waitFor();
      const box = await search.dialog().boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
      await shootWindow(page, "search-en-light-phone");
      await page.keyboard.press("Escape");
      await search.dialog().waitFor({ state: "detached" });

      await new Shell(page).chooseLanguage("afr");
      await page.emulateMedia({ colorScheme: "dark" });
      await page.getByTestId("search-open").click();
      await search.dialog().waitFor();
      await search.search("mokoena");
      await expect(search.group("customer").textContent()).resolves.toContain("Kliënte");
      await shootWindow(page, "search-afr-dark-phone");
    } finally {
      await session.close();
    }
  });
});
