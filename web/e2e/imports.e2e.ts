import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, type Session } from "./browser";
import { signUpFresh } from "./flows";
import { csvOf, EFT_ONCE_HEADER, eftOnceRow, inDays } from "./importsCsv";
import { PaymentsListPage } from "./pages/CollectionPages";
import { ImportDialog, ImportPage, ImportsList } from "./pages/ImportPages";
import { Shell } from "./pages/Shell";

// Spreadsheet rows count from the header, which is row 1.
const ROWS = [
  eftOnceRow("IMP-001", "Sipho", "Dlamini"),
  eftOnceRow("IMP-002", "Anele", "Mokoena", { Amount: "89.90" }),
  eftOnceRow("IMP-003", "Johan", "Botha", { Email: "johan.at.example" }),
  eftOnceRow("IMP-004", "Naledi", "Zulu", { "Bank name": "FNB", "Bank branch code": "250655", "Bank account type": "Current" }),
  eftOnceRow("IMP-005", "Ruan", "Pretorius", { "Date to process": inDays(-5) }),
  eftOnceRow("IMP-006", "Fatima", "Patel", { "Bank branch code": "123456" }),
  eftOnceRow("IMP-007", "Lindiwe", "Ndlovu", { Amount: "1200" }),
];
const FILE_NAME = "june-debit-orders.csv";

describe("bulk import of once-off EFT debit orders, followed live in a second tab", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowser();
    const page = await session.newPage();
    await signUpFresh(page, "imports");
    await page.close();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("checks a spreadsheet, shows its problems by row, imports the valid rows and shows them in another tab without a reload", async () => {
    const tabA = await session.newPage();
    const tabB = await session.newPage();
    const listA = new PaymentsListPage(tabA, "one-time");
    const listB = new PaymentsListPage(tabB, "one-time");
    for (const [tab, list] of [
      [tabA, listA],
      [tabB, listB],
    ] as const) {
      await list.open();
      await new Shell(tab).waitUntilLive();
      await tab.getByTestId("payments-empty").waitFor();
    }

    await tabA.bringToFront();
    const dialog = new ImportDialog(tabA);
    await dialog.open();
    await dialog.chooseTemplate("eft_debit_order");

    const template = await dialog.downloadTemplate();
    expect(template.suggestedFilename()).toMatch(/\.(xlsx|csv)$/);
    expect(readFileSync(await template.path()).byteLength).toBeGreaterThan(0);

    // A file that lacks a column its layout requires is refused as a whole, naming the column.
    const withoutEmail = EFT_ONCE_HEADER.filter((column) => column !== "Email");
    await dialog.upload("no-email.csv", csvOf(withoutEmail, ROWS));
    await dialog.fileError().waitFor();
    const column = dialog.fileError().getByTestId("import-file-error-column");
    expect(await column.getAttribute("data-code")).toBe("import_missing_column");
    expect(await column.allTextContents()).toEqual(["Column “Email”: A column this layout requires is missing."]);
    await shoot(tabA, "import-missing-column-en-light");

    await dialog.upload(FILE_NAME, csvOf(EFT_ONCE_HEADER, ROWS));
    await dialog.preview().waitFor();
    expect(await dialog.count("rows")).toBe(7);
    expect(await dialog.count("valid")).toBe(4);
    expect(await dialog.count("invalid")).toBe(3);
    const issues = await dialog.issues();
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 4, column: "Email", code: "invalid_email" }),
        expect.objectContaining({ row: 6, column: "Date to process", code: "date_in_past" }),
        expect.objectContaining({ row: 7, column: "Bank branch code", code: "branch_code_mismatch" }),
      ]),
    );
    expect(new Set(issues.map((issue) => issue.row))).toEqual(new Set([4, 6, 7]));
    expect(await dialog.issueRows().filter({ hasText: "Enter a valid e-mail address." }).count()).toBe(1);
    await shoot(tabA, "import-preview-en-light");

    const invalidRows = await dialog.downloadIssues();
    expect(readFileSync(await invalidRows.path()).byteLength).toBeGreaterThan(0);

    expect(await dialog.confirmButton().textContent()).toContain("4");
    await dialog.confirm();
    await tabA.waitForURL((url) => /^\/payments\/one-time\/imports\/imp_/.test(url.pathname));
    const importA = new ImportPage(tabA);
    await importA.waitForIt();
    await expect.poll(() => importA.status(), { timeout: 30_000 }).toBe("completed");
    expect(await importA.count("rows")).toBe(7);
    expect(await importA.count("valid")).toBe(4);
    expect(await importA.count("invalid")).toBe(3);
    expect(await importA.count("committed")).toBe(4);
    expect(await importA.count("failed")).toBe(0);
    expect(await importA.progress()).toEqual({ now: 4, max: 4 });
    await expect.poll(() => importA.paymentRows().count()).toBe(4);
    await expect.poll(() => importA.issueRows().count()).toBe(3);
    await shoot(tabA, "import-page-en-light");

    // Tab B never reloads: the import and its payments arrive over the socket.
    await tabB.bringToFront();
    const importsB = new ImportsList(tabB);
    await importsB.row(FILE_NAME).waitFor({ timeout: 20_000 });
    await expect.poll(() => importsB.status(FILE_NAME)).toBe("completed");
    await expect.poll(() => importsB.committed(FILE_NAME)).toBe("4 of 4");
    await expect.poll(() => tabB.getByTestId("payment-row").count(), { timeout: 20_000 }).toBe(4);
    for (const name of ["Sipho Dlamini", "Anele Mokoena", "Naledi Zulu", "Lindiwe Ndlovu"]) await listB.row(name).waitFor();
    expect(await listB.row("Johan Botha").count()).toBe(0);
    await shoot(tabB, "import-list-live-en-light");

    // The list's row leads to the import page, which tab B reads too.
    await importsB.row(FILE_NAME).getByRole("link").click();
    const importB = new ImportPage(tabB);
    await importB.waitForIt();
    expect(tabB.url()).toBe(tabA.url());
    expect(await importB.count("committed")).toBe(4);
    await tabA.close();
    await tabB.close();
  });

  it("shows the not-found page for an import that does not exist", async () => {
    const page = await session.newPage();
    await page.goto("/payments/one-time/imports/imp_doesnotexist");
    await new Shell(page).waitUntilLive();
    await page.getByTestId("not-found").waitFor();
    await page.close();
  });
});
