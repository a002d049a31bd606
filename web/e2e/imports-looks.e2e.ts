import { afterAll, beforeAll, describe, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, shoot, type Session } from "./browser";
import { signUpFresh } from "./flows";
import { csvOf, EFT_ONCE_HEADER, eftOnceRow, inDays } from "./importsCsv";
import { PaymentsListPage } from "./pages/CollectionPages";
import { ImportDialog, ImportPage } from "./pages/ImportPages";
import { Shell } from "./pages/Shell";

const CSV = csvOf(EFT_ONCE_HEADER, [
  eftOnceRow("LOOK-001", "Pieter", "van der Merwe"),
  eftOnceRow("LOOK-002", "Zanele", "Khumalo", { Email: "zanele@mailinator.com" }),
  eftOnceRow("LOOK-003", "Thabo", "Mokoena", { Amount: "0" }),
  eftOnceRow("LOOK-004", "Elmarie", "Steyn", { "Date to process": inDays(-2), "Bank account type": "Spaarrekening" }),
  eftOnceRow("LOOK-005", "Ayesha", "Khan", { Amount: "349.50" }),
]);

async function previewIn(page: Page, chosenShot?: string): Promise<ImportDialog> {
  const list = new PaymentsListPage(page, "one-time");
  await list.open();
  await new Shell(page).waitUntilLive();
  const dialog = new ImportDialog(page);
  await dialog.open();
  await dialog.chooseTemplate("eft_debit_order");
  await dialog.pick("looks.csv", CSV);
  if (chosenShot) await shoot(page, chosenShot);
  await dialog.root().getByTestId("import-upload").click();
  await dialog.preview().waitFor();
  return dialog;
}

describe("import screens in both languages and colour modes", () => {
  let session: Session;
  let page: Page;
  let importPath = "";

  beforeAll(async () => {
    session = await openBrowser({ colorScheme: "light" });
    page = await session.newPage();
    await signUpFresh(page, "import-looks");
    const dialog = await previewIn(page);
    await dialog.confirm();
    await page.waitForURL((url) => url.pathname.includes("/imports/imp_"));
    await new ImportPage(page).waitForIt();
    importPath = new URL(page.url()).pathname;
  });

  afterAll(async () => {
    await session?.close();
  });

  it("draws the import preview and the import page in en and afr, light and dark", async () => {
    const shell = new Shell(page);
    for (const [language, theme] of [
      ["en", "light"],
      ["en", "dark"],
      ["afr", "light"],
      ["afr", "dark"],
    ] as const) {
      await page.goto("/payments/one-time");
      await shell.waitUntilLive();
      await shell.chooseLanguage(language);
      await shell.chooseTheme(theme);
      await previewIn(page, `import-choose-${language}-${theme}`);
      await shoot(page, `import-preview-${language}-${theme}`);
      await page.keyboard.press("Escape");
      await page.getByTestId("import-dialog").waitFor({ state: "detached" });
      await page.getByTestId("imports-list").waitFor();
      await shoot(page, `imports-list-${language}-${theme}`);
      await page.goto(importPath);
      await shell.waitUntilLive();
      const detail = new ImportPage(page);
      await detail.waitForIt();
      await page.getByTestId("import-payment-row").first().waitFor();
      await page.waitForLoadState("networkidle");
      await shoot(page, `import-page-${language}-${theme}`);
    }
  });
});
