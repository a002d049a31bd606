import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, shoot, type Session } from "./browser";
import { signUpFresh } from "./flows";
import { csvOf, EFT_ONCE_HEADER, eftOnceRow } from "./importsCsv";
import { PaymentsListPage } from "./pages/CollectionPages";
import { ImportDialog, ImportPage } from "./pages/ImportPages";
import { Shell } from "./pages/Shell";

const JULY = [eftOnceRow("REP-001", "Sipho", "Dlamini"), eftOnceRow("REP-002", "Anele", "Mokoena"), eftOnceRow("REP-003", "Johan", "Botha")];
// The same payments, and two new ones after them: a sheet a merchant kept adding to.
const JULY_AND_MORE = [...JULY, eftOnceRow("REP-004", "Naledi", "Zulu"), eftOnceRow("REP-005", "Ruan", "Pretorius")];

async function uploadInto(page: Page, name: string, csv: string): Promise<ImportDialog> {
  const list = new PaymentsListPage(page, "one-time");
  await list.open();
  await new Shell(page).waitUntilLive();
  const dialog = new ImportDialog(page);
  await dialog.open();
  await dialog.chooseTemplate("eft_debit_order");
  await dialog.upload(name, csv);
  await dialog.preview().waitFor();
  return dialog;
}

async function confirmed(page: Page, dialog: ImportDialog): Promise<ImportPage> {
  await dialog.confirm();
  await page.waitForURL((url) => /^\/payments\/one-time\/imports\/imp_/.test(url.pathname));
  const detail = new ImportPage(page);
  await detail.waitForIt();
  await expect.poll(() => detail.status(), { timeout: 30_000 }).toBe("completed");
  return detail;
}

async function paymentNames(detail: ImportPage): Promise<string[]> {
  const names = await detail.paymentRows().locator("a").allTextContents();
  return names.sort();
}

describe("a spreadsheet imported again does not debit anyone twice", () => {
  let session: Session;
  let page: Page;

  beforeAll(async () => {
    session = await openBrowser();
    page = await session.newPage();
    await signUpFresh(page, "import-repeats");
  });

  afterAll(async () => {
    await session?.close();
  });

  it("warns of a file imported before, skips the repeated rows, and lists only the import's own payments", async () => {
    const first = await uploadInto(page, "july.csv", csvOf(EFT_ONCE_HEADER, JULY));
    expect(await first.duplicateFileWarning().count()).toBe(0);
    expect(await first.count("duplicates")).toBe(0);
    const july = await confirmed(page, first);
    await expect.poll(() => july.paymentRows().count()).toBe(3);
    const julyPath = new URL(page.url()).pathname;

    // The very same file again: named, dated and linked; nothing new to import.
    const again = await uploadInto(page, "july (1).csv", csvOf(EFT_ONCE_HEADER, JULY));
    await again.duplicateFileWarning().waitFor();
    expect(await again.duplicateFileWarning().textContent()).toContain("“july.csv”");
    expect(await again.count("duplicates")).toBe(3);
    expect((await again.duplicates()).map((row) => [row.row, row.code])).toEqual([
      [2, "duplicate_payment"],
      [3, "duplicate_payment"],
      [4, "duplicate_payment"],
    ]);
    expect(await again.confirmButton().isDisabled()).toBe(true);
    await again.allowDuplicateFile();
    expect(await again.confirmButton().isDisabled()).toBe(true);
    await shoot(page, "import-duplicate-file-en-light");
    await again.duplicateFileWarning().getByTestId("import-duplicate-file-link").click();
    await page.waitForURL((url) => url.pathname === julyPath);

    // The sheet with two more rows: the three repeats are listed and left out.
    const more = await uploadInto(page, "july-and-more.csv", csvOf(EFT_ONCE_HEADER, JULY_AND_MORE));
    expect(await more.duplicateFileWarning().count()).toBe(0);
    expect(await more.count("valid")).toBe(5);
    expect(await more.count("duplicates")).toBe(3);
    expect((await more.duplicates()).map((row) => row.row)).toEqual([2, 3, 4]);
    expect(await more.confirmButton().textContent()).toContain("2");
    await shoot(page, "import-duplicate-rows-en-light");
    const detail = await confirmed(page, more);
    expect(await detail.count("committed")).toBe(2);
    expect(await detail.count("skipped")).toBe(3);
    expect(await detail.progress()).toEqual({ now: 5, max: 5 });
    await expect.poll(() => detail.issueRows().count()).toBe(3);

    // The payments of this import, and none of the first one's.
    await expect.poll(() => detail.paymentRows().count()).toBe(2);
    expect(await paymentNames(detail)).toEqual(["Naledi Zulu", "Ruan Pretorius"]);
    await shoot(page, "import-skipped-repeats-en-light");

    await page.goto(julyPath);
    await july.waitForIt();
    await expect.poll(() => july.paymentRows().count()).toBe(3);
    expect(await paymentNames(july)).toEqual(["Anele Mokoena", "Johan Botha", "Sipho Dlamini"]);
  });
});
