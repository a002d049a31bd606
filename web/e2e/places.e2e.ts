import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, shootWindow, type Session } from "./browser";
import { createRecord } from "./dashboardSeed";
import { signUpFresh } from "./flows";
import { firstLink, waitForMailContaining } from "./mail";
import { LoginPage, type Account } from "./pages/AuthPages";
import { payByCard } from "./pages/CommercePages";
import { CustomerDetailPage, CustomersListPage } from "./pages/CustomerPages";
import { TabPlace, TeamAdmin, type Mode } from "./pages/PlacePages";
import { Shell } from "./pages/Shell";
import { customerInput } from "./seed";

type Business = { id: string; name: string };
type Record = { business: Business; mode: Mode; customerId: string; name: string };

const suffix = Date.now().toString(36);

/** Signs in (in a context without a session) by way of `link`, and waits to be back on it. */
async function signInThrough(page: Page, link: string, account: Account): Promise<void> {
  await page.goto(link);
  await new LoginPage(page).waitForIt();
  await new LoginPage(page).signIn(account.email, account.password);
  await page.waitForURL((url) => `${url.pathname}${url.search}` === link);
}

async function expectRecordShown(page: Page, record: Record): Promise<void> {
  const place = new TabPlace(page);
  await place.waitForHeader(record.business.name, record.mode);
  const detail = new CustomerDetailPage(page);
  await detail.waitForIt();
  expect(await detail.title().textContent()).toBe(record.name);
  expect([place.business(), place.mode()]).toEqual([record.business.id, record.mode]);
}

describe("the business and the mode are part of the address", () => {
  let owner: Session;
  let fiona: Session;
  let ownerTab: Page;
  let fionaTab: Page;
  let ownerAccount: Account;
  let fionaAccount: Account;
  const karoo: Business = { id: "", name: `Karoo Traders ${suffix}` };
  const flowers: Business = { id: "", name: `Fiona's Flowers ${suffix}` };
  const records: Record[] = [];

  beforeAll(async () => {
    owner = await openBrowser();
    fiona = await openBrowser();
    ownerTab = await owner.newPage();
    ownerAccount = await signUpFresh(ownerTab, "place-owner", karoo.name);
    karoo.id = await new TabPlace(ownerTab).businessInAddress();
    const karooLive = await createRecord(ownerTab, "live", { t: "CreateCustomer", input: customerInput("Lerato Live", "lerato@example.co.za") });
    const karooTest = await createRecord(ownerTab, "test", { t: "CreateCustomer", input: customerInput("Thabo Test", "thabo@example.co.za") });

    fionaTab = await fiona.newPage();
    fionaAccount = await signUpFresh(fionaTab, "place-fiona", flowers.name);
    flowers.id = await new TabPlace(fionaTab).businessInAddress();
    const ownCustomer = await createRecord(fionaTab, "live", { t: "CreateCustomer", input: customerInput("Naledi Own", "naledi@example.co.za") });
    records.push(
      { business: karoo, mode: "live", customerId: karooLive, name: "Lerato Live" },
      { business: karoo, mode: "test", customerId: karooTest, name: "Thabo Test" },
      { business: flowers, mode: "live", customerId: ownCustomer, name: "Naledi Own" },
    );

    // Fiona joins Karoo's team: accepting opens Karoo, by its address.
    await new TeamAdmin(ownerTab).invite(fionaAccount.email, "operations");
    // Her own sign-up's mail went to the same address: the invite is the one with its link.
    const mail = await waitForMailContaining(fionaAccount.email, "/account/teams/invite/");
    await fionaTab.goto(firstLink(mail.text, fiona.baseURL) ?? "");
    await fionaTab.getByTestId("accept-invite").click();
    await new TabPlace(fionaTab).waitForAddress(karoo.id, "live", "/");
    await new TabPlace(fionaTab).waitForHeader(karoo.name, "live");
  }, 180_000);

  afterAll(async () => {
    await fiona?.close();
    await owner?.close();
  });

  it("keeps the business and mode through a reload, a new tab, the back button and a shared link", async () => {
    const place = new TabPlace(fionaTab);
    const links: string[] = [];
    for (const record of records) {
      // Chosen in the menus, as a person does.
      if (place.business() !== record.business.id) {
        await place.chooseBusiness(record.business.name);
        await place.merchantName().filter({ hasText: record.business.name }).waitFor();
      }
      await place.chooseMode(record.mode);
      await place.waitForHeader(record.business.name, record.mode);
      await fionaTab.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Customers", exact: true }).click();
      const row = new CustomersListPage(fionaTab).row(record.name);
      const href = (await row.getByRole("link").first().getAttribute("href")) ?? "";
      expect(new URLSearchParams(href.split("?")[1]).get("business")).toBe(record.business.id);
      expect(new URLSearchParams(href.split("?")[1]).get("mode")).toBe(record.mode);
      await row.getByRole("link").first().click();
      await expectRecordShown(fionaTab, record);

      await fionaTab.reload();
      await expectRecordShown(fionaTab, record);

      const url = new URL(fionaTab.url());
      const link = `${url.pathname}${url.search}`;
      links.push(link);
      const newTab = await fiona.newPage();
      await newTab.goto(link);
      await expectRecordShown(newTab, record);
      await newTab.close();
    }

    // Back, step by step, the way she came: her own business's lists (live, then test, as the
    // menus switched), then Karoo's test customer again.
    await fionaTab.goBack();
    await place.waitForAddress(flowers.id, "live", "/customers");
    await place.waitForHeader(flowers.name, "live");
    await fionaTab.goBack();
    await place.waitForAddress(flowers.id, "test", "/customers");
    await place.waitForHeader(flowers.name, "test");
    await fionaTab.goBack();
    await expectRecordShown(fionaTab, records[1]);

    // Each link, passed on to a browser that was never signed in, opens where it was copied.
    const elsewhere = await openBrowser();
    try {
      const page = await elsewhere.newPage();
      await signInThrough(page, links[1], fionaAccount);
      await expectRecordShown(page, records[1]);
      for (const [index, link] of links.entries()) {
        await page.goto(link);
        await expectRecordShown(page, records[index]);
      }
    } finally {
      await elsewhere.close();
    }
  }, 180_000);

  it("opens a test-mode link from a fresh browser in test mode, and says where a bare link's record is", async () => {
    const testRecord = records[1];
    const browser = await openBrowser();
    try {
      const page = await browser.newPage();
      await signInThrough(page, `/customers/${testRecord.customerId}?business=${karoo.id}&mode=test`, ownerAccount);
      await expectRecordShown(page, testRecord);

      // Without its place the link opens on live data: the page says the customer is test data, with the way there.
      const bare = await browser.newPage();
      await bare.goto(`/customers/${testRecord.customerId}`);
      const place = new TabPlace(bare);
      await place.elsewhere().waitFor();
      expect(await bare.getByTestId("customer-missing").textContent()).toContain("It is in the test data, and this tab shows live data.");
      expect(await place.elsewhere().getByRole("link").textContent()).toBe("Open in test mode");
      await shoot(bare, "record-elsewhere-test-en-light");
      await place.openElsewhere();
      await expectRecordShown(bare, testRecord);

      // A test order's bare link: the dialog covers the header's switch, so the way is in the dialog.
      const payPage = await createRecord(page, "test", {
        t: "CreatePayPage",
        input: { title: "Day pass", description: "One day at the gym.", amountMode: "fixed", amountCents: 9900, kind: "once", methods: ["card"], reference: "DAY", colour: "#1e3a8a" },
      });
      const payer = await browser.newPage();
      await payByCard(payer, payPage, { name: "Sipho Dlamini", email: "sipho@example.co.za", cardNumber: "4242424242424242" });
      await bare.goto(`/commerce/orders?business=${karoo.id}&mode=test`);
      const orderRow = bare.getByTestId("order-row").first();
      await orderRow.waitFor();
      const orderId = (await orderRow.getAttribute("data-order-id")) ?? "";
      const orderTab = await browser.newPage();
      await orderTab.goto(`/commerce/orders?order=${orderId}`);
      const dialog = orderTab.getByTestId("order-detail");
      await dialog.getByTestId("record-elsewhere").waitFor();
      await shootWindow(orderTab, "order-elsewhere-test-en-light");
      await dialog.getByTestId("record-elsewhere-open").click();
      await new TabPlace(orderTab).waitForAddress(karoo.id, "test", "/commerce/orders");
      await orderTab.getByTestId("order-detail").getByTestId("order-fee").waitFor();
      expect(new URL(orderTab.url()).searchParams.get("order")).toBe(orderId);

      // The same message in Afrikaans and in the dark, each in a new tab (a tab that went to
      // test mode stays there for a bare address).
      for (const [language, scheme] of [["en", "dark"], ["afr", "light"], ["afr", "dark"]] as const) {
        await browser.context.addCookies([{ name: "locale", value: language, url: browser.baseURL }]);
        const tab = await browser.newPage();
        await tab.emulateMedia({ colorScheme: scheme });
        await tab.goto(`/customers/${testRecord.customerId}`);
        await new TabPlace(tab).elsewhere().waitFor();
        await shoot(tab, `record-elsewhere-test-${language}-${scheme}`);
        if (language === "afr") expect(await new TabPlace(tab).elsewhere().getByRole("link").textContent()).toBe("Maak oop in toetsmodus");
        await tab.close();
      }
    } finally {
      await browser.close();
    }

    // A bare link to Karoo's customer, in Fiona's tab on her own business: it names Karoo.
    const tab = await fiona.newPage();
    await tab.goto(`/customers/${records[0].customerId}?business=${flowers.id}&mode=live`);
    const place = new TabPlace(tab);
    await place.elsewhere().waitFor();
    expect(await place.elsewhere().textContent()).toContain(`It belongs to ${karoo.name}.`);
    await place.openElsewhere();
    await expectRecordShown(tab, records[0]);
    await tab.close();
  }, 150_000);

  it("shows two businesses side by side in two tabs of one person", async () => {
    const karooTab = await fiona.newPage();
    const flowersTab = await fiona.newPage();
    try {
      await karooTab.goto(`/customers?business=${karoo.id}&mode=live`);
      await flowersTab.goto(`/customers?business=${flowers.id}&mode=live`);
      const karooList = new CustomersListPage(karooTab);
      const flowersList = new CustomersListPage(flowersTab);
      await karooList.row("Lerato Live").waitFor();
      await flowersList.row("Naledi Own").waitFor();
      await new TabPlace(karooTab).waitForHeader(karoo.name, "live");
      await new TabPlace(flowersTab).waitForHeader(flowers.name, "live");

      // A customer new at Karoo arrives live in the Karoo tab only.
      await createRecord(ownerTab, "live", { t: "CreateCustomer", input: customerInput("Sipho New", "sipho@example.co.za") });
      await karooList.row("Sipho New").waitFor();
      for (const tab of [karooTab, flowersTab]) await tab.reload();
      await karooList.row("Sipho New").waitFor();
      await flowersList.row("Naledi Own").waitFor();
      expect(await flowersList.rows().count()).toBe(1);
      expect(await karooList.row("Naledi Own").count()).toBe(0);
      await new TabPlace(flowersTab).waitForHeader(flowers.name, "live");
    } finally {
      await karooTab.close();
      await flowersTab.close();
    }
  }, 90_000);

  it("says plainly when the person was removed from the business their tab shows, and moves on", async () => {
    const place = new TabPlace(fionaTab);
    await fionaTab.goto(`/customers/${records[1].customerId}?business=${karoo.id}&mode=test`);
    await expectRecordShown(fionaTab, records[1]);

    await new TeamAdmin(ownerTab).remove(fionaAccount.email);

    const notice = place.notice();
    await notice.waitFor();
    expect(await notice.getAttribute("data-kind")).toBe("removed");
    expect(await notice.textContent()).toContain(`You were removed from the team of ${karoo.name}.`);
    expect(await notice.textContent()).not.toContain("permission");
    // Her own business, in the mode she was in, at the list of what she was looking at.
    await place.waitForAddress(flowers.id, "test", "/customers");
    await place.waitForHeader(flowers.name, "test");
    await fionaTab.getByTestId("customers-page").waitFor();
    expect(await fionaTab.getByText("Thabo Test").count()).toBe(0);
    await shoot(fionaTab, "removed-notice-en-light");

    // The notice stays until dismissed: it reads in Afrikaans and in the dark too.
    const shell = new Shell(fionaTab);
    await shell.chooseTheme("dark");
    await shoot(fionaTab, "removed-notice-en-dark");
    await shell.chooseLanguage("afr");
    await notice.filter({ hasText: `Jy is uit die span van ${karoo.name} verwyder.` }).waitFor();
    await shoot(fionaTab, "removed-notice-afr-dark");
    await shell.chooseTheme("light");
    await shoot(fionaTab, "removed-notice-afr-light");
    await notice.getByRole("button").click();
    await notice.waitFor({ state: "detached" });
  }, 90_000);
});
