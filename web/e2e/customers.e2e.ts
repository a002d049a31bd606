import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, shootWindow, shootPart, type Session } from "./browser";
import { signUpFresh } from "./flows";
import { customerInput, seedCustomers } from "./seed";
import { LoginPage } from "./pages/AuthPages";
import { BankAccountsCard, CustomerDetailPage, CustomersListPage } from "./pages/CustomerPages";
import { isFocused } from "./pages/fieldErrors";
import { Shell } from "./pages/Shell";

describe("customers, live across tabs", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowser();
    const page = await session.newPage();
    await signUpFresh(page, "customers");
    await page.close();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("shows a customer created in one tab in the other, then edits travel both ways", async () => {
    const tabA = await session.newPage();
    const tabB = await session.newPage();
    const listA = new CustomersListPage(tabA);
    const listB = new CustomersListPage(tabB);
    await listA.open();
    await listB.open();
    await new Shell(tabA).waitUntilLive();
    await new Shell(tabB).waitUntilLive();
    await shoot(tabB, "customers-empty-en-light");

    // A person acts in the tab in front; background tabs throttle animation frames.
    await tabA.bringToFront();
    await listA.create({
      name: "Sipho Dlamini",
      email: "sipho@example.co.za",
      cellphone: "+27821234567",
      idType: "south_african_id",
      idNumber: "8801235111088",
      addressLine1: "12 Long Street",
      city: "Cape Town",
      postalCode: "8001",
      reference: "CUST-001",
    });
    const detailA = new CustomerDetailPage(tabA);
    await detailA.waitForIt();
    expect(await detailA.title().textContent()).toBe("Sipho Dlamini");

    // Tab B never reloads: the row arrives over the socket.
    await listB.row("Sipho Dlamini").waitFor();
    await shoot(tabB, "customers-list-en-light");

    await tabB.bringToFront();
    await listB.row("Sipho Dlamini").getByRole("link").click();
    const detailB = new CustomerDetailPage(tabB);
    await detailB.waitForIt();
    await detailB.viewingToo().waitFor();
    await shoot(tabB, "customer-detail-en-light");

    await tabA.bringToFront();
    await detailA.edit({ name: "Sipho M. Dlamini", city: "Stellenbosch" });
    await expect.poll(() => detailB.title().textContent()).toBe("Sipho M. Dlamini");
    await tabB.getByText("Stellenbosch").waitFor();

    await tabB.bringToFront();
    await detailB.archive();
    await expect.poll(() => detailA.status().textContent()).toBe("Archived");
    await tabA.bringToFront();
    await detailA.restore();
    await expect.poll(() => detailB.status().textContent()).toBe("Active");

    await tabA.close();
    await tabB.close();
  });

  it("shows server validation errors beside the fields", async () => {
    const page = await session.newPage();
    const list = new CustomersListPage(page);
    await list.open();
    await list.create({ name: "Bad Postal", email: "not-an-email", postalCode: "12" });
    await expect.poll(() => list.fieldError("email").textContent()).toBe("Enter a valid e-mail address.");
    await expect.poll(() => list.fieldError("postalCode").textContent()).toBe("A postal code has exactly 4 digits.");
    await shoot(page, "customer-form-errors-en-light");
    await page.close();
  });

  it("searches on the server and filters by status", async () => {
    const page = await session.newPage();
    const list = new CustomersListPage(page);
    await list.open();
    await list.create({ name: "Naledi Mokoena", email: "naledi@example.co.za" });
    await new CustomerDetailPage(page).waitForIt();
    await list.open();
    await list.row("Naledi Mokoena").waitFor();
    await list.search("naledi");
    await expect.poll(() => list.rows().count()).toBe(1);
    await list.search("zzz-nobody");
    await page.getByTestId("customers-empty").waitFor();
    await list.search("");
    await list.showStatus("archived");
    await expect.poll(() => list.rows().count()).toBe(0);
    await list.showStatus("all");
    await list.row("Naledi Mokoena").waitFor();
    await page.close();
  });
});

describe("a customer's bank accounts, live across tabs", () => {
  it("adds an account in one tab, shows it masked in the other, explains a wrong branch code and removes it", async () => {
    const session = await openBrowser();
    try {
      const tabA = await session.newPage();
      await signUpFresh(tabA, "bank-accounts");
      const list = new CustomersListPage(tabA);
      await list.open();
      await list.create({ name: "Johan van der Merwe", email: "johan@example.co.za" });
      const detailA = new CustomerDetailPage(tabA);
      await detailA.waitForIt();
      const accountsA = new BankAccountsCard(tabA);
      await accountsA.waitForIt();

      const tabB = await session.newPage();
      await tabB.goto(new URL(tabA.url()).pathname);
      await new CustomerDetailPage(tabB).waitForIt();
      const accountsB = new BankAccountsCard(tabB);
      await accountsB.waitForIt();
      await new Shell(tabA).waitUntilLive();
      await new Shell(tabB).waitUntilLive();
      await tabB.evaluate(() => {
        (window as unknown as { marker: boolean }).marker = true;
      });

      // Choosing Capitec fills in its universal branch code.
      await tabA.bringToFront();
      await accountsA.openAdd();
      await accountsA.fill({ bank: "capitec" });
      expect(await accountsA.field("branchCode").inputValue()).toBe("470010");
      await accountsA.fill({ accountType: "savings", holderName: "J van der Merwe", accountNumber: "1234567890" });
      await accountsA.submit();
      await accountsA.dialog().waitFor({ state: "detached" });
      await accountsA.row("•••• 7890").waitFor();

      // Tab B never reloads: the account arrives over the socket, masked.
      await accountsB.row("Capitec").waitFor();
      expect(await accountsB.row("Capitec").getByTestId("bank-account-number").textContent()).toBe("•••• 7890");
      expect(await accountsB.row("Capitec").textContent()).toContain("470010");
      expect(await accountsB.row("Capitec").textContent()).toContain("Savings");
      expect(await tabB.getByText("1234567890").count()).toBe(0);
      await tabB.bringToFront();
      await shootPart(accountsB.card(), "bank-accounts-en-light");

      // Not Capitec's universal branch code: the server says so beside the field.
      await tabA.bringToFront();
      await accountsA.openAdd();
      await accountsA.fill({ bank: "capitec", branchCode: "123456", accountNumber: "9876543210" });
      await accountsA.submit();
      await expect.poll(() => accountsA.fieldError("branchCode").textContent()).toBe("This is not the bank's universal branch code.");
      await shoot(tabA, "bank-account-errors-en-light");
      await accountsA.closeDialog();
      expect(await accountsA.rows().count()).toBe(1);

      // The same card in Afrikaans and dark.
      await tabB.bringToFront();
      const shellB = new Shell(tabB);
      await shellB.chooseTheme("dark");
      await expect.poll(() => shellB.htmlHasDark()).toBe(true);
      await shellB.chooseLanguage("afr");
      await accountsB.card().getByText("Bankrekeninge").waitFor();
      await accountsB.row("Spaar").waitFor();
      await shootPart(accountsB.card(), "bank-accounts-afr-dark");
      await shellB.chooseLanguage("en");
      await shellB.chooseTheme("light");
      await accountsB.card().getByText("Bank accounts").waitFor();

      // Removed in tab A, gone from tab B.
      await tabA.bringToFront();
      await accountsA.remove("•••• 7890");
      await expect.poll(() => accountsA.rows().count()).toBe(0);
      await expect.poll(() => accountsB.rows().count()).toBe(0);
      await tabB.getByTestId("bank-accounts-empty").waitFor();
      expect(await tabB.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
    } finally {
      await session.close();
    }
  });
});

describe("a new bank account's mistakes, all at once", () => {
  it("names every blank field with the server's findings in one press, makes nothing, and takes a field's error away once it is fixed", async () => {
    const session = await openBrowser();
    try {
      const page = await session.newPage();
      await signUpFresh(page, "bank-account-blanks");
      const list = new CustomersListPage(page);
      await list.open();
      await list.create({ name: "Thandi Nkosi", email: "thandi@example.co.za" });
      await new CustomerDetailPage(page).waitForIt();
      const accounts = new BankAccountsCard(page);
      await accounts.waitForIt();
      const shell = new Shell(page);
      await shell.waitUntilLive();
      const required = "This field is required.";

      // No bank, and a number only the server reads wrong: one press names it all, the blanks
      // with the server's finding (the holder name starts as the customer's name).
      await accounts.openAdd();
      await accounts.fill({ holderName: "", accountNumber: "12a4" });
      await accounts.submit();
      await expect.poll(() => accounts.errors()).toEqual([
        ["bank-account-bank", required],
        ["bank-account-branchCode", required],
        ["bank-account-holderName", required],
        ["bank-account-accountNumber", "An account number has only digits (at most 17), and not only zeros."],
      ]);
      expect(await isFocused(accounts.field("bank"))).toBe(true);

      // Fixing a field takes its error away; the others stay until they are fixed too.
      await accounts.fill({ accountNumber: "1234567890" });
      await expect.poll(() => accounts.errors()).toEqual([
        ["bank-account-bank", required],
        ["bank-account-branchCode", required],
        ["bank-account-holderName", required],
      ]);
      // A bank fills in its branch code: both answered.
      await accounts.fill({ bank: "capitec" });
      await expect.poll(() => accounts.errors()).toEqual([["bank-account-holderName", required]]);
      await accounts.closeDialog();
      await page.getByTestId("bank-accounts-empty").waitFor();

      // An account the customer already has is told with the blank holder name, in the same
      // answer, and goes once the number is changed.
      await accounts.add({ bank: "capitec", accountNumber: "1234567890" });
      await accounts.row("•••• 7890").waitFor();
      await accounts.openAdd();
      await accounts.fill({ bank: "capitec", holderName: " ", accountNumber: "1234 567 890" });
      await accounts.submit();
      await expect.poll(() => accounts.errors()).toEqual([
        ["bank-account-holderName", required],
        ["bank-account-accountNumber", "This customer already has this account."],
      ]);
      await accounts.fill({ accountNumber: "1234567891" });
      await expect.poll(() => accounts.errors()).toEqual([["bank-account-holderName", required]]);
      await accounts.closeDialog();
      expect(await accounts.rows().count()).toBe(1);

      // Checked as the bank would: the chosen bank's numbering (said before the number is sent),
      // then the bank's account verification, each on its field; nothing refused is kept.
      await accounts.openAdd();
      await accounts.fill({ bank: "fnb", accountNumber: "12345" });
      await page.getByText("FNB account numbers have 10 to 11 digits.").waitFor();
      await accounts.submit();
      await expect.poll(() => accounts.errors()).toEqual([["bank-account-accountNumber", "This bank's account numbers have another number of digits: check the number."]]);
      await accounts.fill({ accountNumber: "4200000004" });
      await accounts.submit();
      await expect.poll(() => accounts.errors()).toEqual([["bank-account-holderName", "The bank says this account is held in another name."]]);
      await accounts.closeDialog();
      expect(await accounts.rows().count()).toBe(1);

      // How the empty form's errors look, in en and afr, light and dark, wide and on a phone.
      for (const [language, theme, wording] of [
        ["en", "light", required],
        ["afr", "dark", "Hierdie veld is verpligtend."],
      ] as const) {
        await shell.chooseLanguage(language);
        await shell.chooseTheme(theme);
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 844 });
          await accounts.openAdd();
          await accounts.fill({ holderName: "" });
          await accounts.submit();
          await expect.poll(async () => (await accounts.errors()).length).toBe(4);
          expect(new Set((await accounts.errors()).map(([, text]) => text))).toEqual(new Set([wording]));
          // Nothing in the dialog runs off its side.
          expect(await accounts.dialog().evaluate((dialog) => dialog.scrollWidth <= dialog.clientWidth)).toBe(true);
          const tall = await accounts.dialog().evaluate((dialog) => dialog.scrollHeight);
          // A window tall enough for the whole dialog, as the user sees it.
          await page.setViewportSize({ width, height: Math.max(844, tall + 64) });
          await shootWindow(page, `bank-account-all-missing-${language}-${theme}-${width}`);
          await accounts.closeDialog();
        }
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      await shell.chooseLanguage("en");
      await shell.chooseTheme("light");
    } finally {
      await session.close();
    }
  });
});

describe("live and test data", () => {
  it("keeps test customers apart and switches without a reload", async () => {
    const browser = await openBrowser();
    try {
      const page = await browser.newPage();
      await signUpFresh(page, "modes");
      const list = new CustomersListPage(page);
      await list.open();
      const shell = new Shell(page);
      await shell.waitUntilLive();
      await shell.chooseMode("test");
      // The badge beside the business name (the header's switch is labelled Test mode too).
      await shell.merchantName().getByText("Test mode").waitFor();
      await list.create({ name: "Test Only", email: "test-only@example.co.za" });
      await new CustomerDetailPage(page).waitForIt();
      await page.getByRole("link", { name: /All customers/ }).click();
      await list.row("Test Only").waitFor();
      await shell.chooseMode("live");
      await page.getByTestId("customers-empty").waitFor();
      expect(await shell.merchantName().getByText("Test mode").count()).toBe(0);
      expect(await page.getByTestId("test-strip").count()).toBe(0);
    } finally {
      await browser.close();
    }
  });
});

describe("paging", () => {
  it("loads the next page by cursor", async () => {
    const browser = await openBrowser();
    try {
      const page = await browser.newPage();
      await signUpFresh(page, "paging");
      const list = new CustomersListPage(page);
      await list.open();
      await new Shell(page).waitUntilLive();
      const names = Array.from({ length: 30 }, (_, index) => `Paged Customer ${String(index + 1).padStart(2, "0")}`);
      await seedCustomers(page, names.map((name, index) => customerInput(name, `paged${index}@example.co.za`)));
      await list.open();
      await expect.poll(() => list.rows().count()).toBe(25);
      await page.getByTestId("load-more").click();
      await expect.poll(() => list.rows().count()).toBe(30);
      await expect.poll(() => page.getByTestId("load-more").count()).toBe(0);
      // Newest first: the first one created is last.
      expect(await list.rows().last().textContent()).toContain("Paged Customer 01");
    } finally {
      await browser.close();
    }
  });
});

describe("catching up after a dropped connection", () => {
  it("resumes and shows what changed while it was away, without a reload", async () => {
    const first = await openBrowser();
    const second = await openBrowser();
    try {
      const page = await first.newPage();
      const account = await signUpFresh(page, "resume");
      const list = new CustomersListPage(page);
      await list.open();
      await new Shell(page).waitUntilLive();

      const other = await second.newPage();
      await new LoginPage(other).open();
      await new LoginPage(other).signIn(account.email, account.password);
      await other.waitForURL((url) => url.pathname === "/");
      const otherList = new CustomersListPage(other);
      await otherList.open();

      await page.evaluate(() => {
        (window as unknown as { marker: boolean }).marker = true;
      });
      await first.context.setOffline(true);
      await page.locator('[data-testid="connection-state"]:not([data-state="online"])').waitFor();

      await otherList.create({ name: "Lerato Khumalo", email: "lerato@example.co.za" });
      await new CustomerDetailPage(other).waitForIt();

      await first.context.setOffline(false);
      await new Shell(page).waitUntilLive();
      await list.row("Lerato Khumalo").waitFor();
      expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
