import type { Download, Locator, Page } from "playwright-core";

export type ImportCount = "rows" | "valid" | "invalid" | "committed" | "failed" | "skipped";

export type SeenIssue = { row: number; column: string; code: string };

/** The rows of an issues table: row number, column and error code. */
function seenIssues(rows: Locator): Promise<SeenIssue[]> {
  return rows.evaluateAll((found) =>
    found.map((row) => ({
      row: Number(row.getAttribute("data-row")),
      column: row.querySelectorAll("td")[1]?.textContent ?? "",
      code: row.getAttribute("data-code") ?? "",
    })),
  );
}

/** The "Import from spreadsheet" dialog of a payments list. */
export class ImportDialog {
  constructor(private readonly page: Page) {}

  root() {
    return this.page.getByTestId("import-dialog");
  }

  async open(): Promise<void> {
    await this.page.getByTestId("import-open").click();
    await this.root().waitFor();
  }

  async chooseTemplate(template: "debicheck" | "registered_mandate" | "eft_debit_order"): Promise<void> {
    await this.root().getByTestId("import-template").selectOption(template);
  }

  async downloadTemplate(): Promise<Download> {
    const download = this.page.waitForEvent("download");
    await this.root().getByTestId("import-download-template").click();
    return download;
  }

  /** Picks a file made in the test. */
  async pick(name: string, content: string, mimeType = "text/csv"): Promise<void> {
    await this.root().getByTestId("import-file").setInputFiles({ name, mimeType, buffer: Buffer.from(content, "utf8") });
    await this.root().getByTestId("import-file-chosen").filter({ hasText: name }).waitFor();
  }

  /** Picks a file made in the test and sends it to be checked. */
  async upload(name: string, content: string, mimeType = "text/csv"): Promise<void> {
    await this.pick(name, content, mimeType);
    await this.root().getByTestId("import-upload").click();
  }

  preview() {
    return this.root().getByTestId("import-preview");
  }

  fileError() {
    return this.root().getByTestId("import-file-error");
  }

  async count(name: "rows" | "valid" | "invalid" | "duplicates"): Promise<number> {
    return Number(await this.preview().getByTestId(`import-count-${name}`).getAttribute("data-value"));
  }

  issueRows() {
    return this.preview().getByTestId("import-issues").getByTestId("import-issue");
  }

  async issues(): Promise<SeenIssue[]> {
    return seenIssues(this.issueRows());
  }

  /** The warning that the very same file was imported before. */
  duplicateFileWarning() {
    return this.preview().getByTestId("import-duplicate-file-warning");
  }

  /** Rows that repeat a payment or an earlier row of the file. */
  duplicateRows() {
    return this.preview().getByTestId("import-duplicates").getByTestId("import-issue");
  }

  async duplicates(): Promise<SeenIssue[]> {
    return seenIssues(this.duplicateRows());
  }

  async allowDuplicateFile(): Promise<void> {
    await this.preview().getByTestId("import-allow-duplicate-file").check();
  }

  async includeDuplicates(): Promise<void> {
    await this.preview().getByTestId("import-include-duplicates").check();
  }

  async downloadIssues(): Promise<Download> {
    const download = this.page.waitForEvent("download");
    await this.preview().getByTestId("import-download-issues").click();
    return download;
  }

  confirmButton() {
    return this.root().getByTestId("import-confirm");
  }

  async confirm(): Promise<void> {
    await this.confirmButton().click();
  }

  async chooseAnother(): Promise<void> {
    await this.root().getByTestId("import-choose-another").click();
    await this.root().getByTestId("import-choose").waitFor();
  }
}

/** The imports card on a payments list. */
export class ImportsList {
  constructor(private readonly page: Page) {}

  row(fileName: string) {
    return this.page.getByTestId("import-row").filter({ hasText: fileName });
  }

  async status(fileName: string): Promise<string | null> {
    return this.row(fileName).getByTestId("import-status").getAttribute("data-status");
  }

  async committed(fileName: string): Promise<string | null> {
    return this.row(fileName).getByTestId("import-row-committed").textContent();
  }
}

/** /payments/{kind}/imports/{id}: an import's progress, refused rows and payments. */
export class ImportPage {
  constructor(private readonly page: Page) {}

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("import-page").waitFor();
    await this.page.getByTestId("import-summary").waitFor();
  }

  async count(name: ImportCount): Promise<number> {
    return Number(await this.page.getByTestId("import-summary").getByTestId(`import-count-${name}`).getAttribute("data-value"));
  }

  async status(): Promise<string | null> {
    return this.page.getByTestId("import-summary").getByTestId("import-status").getAttribute("data-status");
  }

  async progress(): Promise<{ now: number; max: number }> {
    const bar = this.page.getByTestId("import-progress").getByRole("progressbar");
    return { now: Number(await bar.getAttribute("aria-valuenow")), max: Number(await bar.getAttribute("aria-valuemax")) };
  }

  issueRows() {
    return this.page.getByTestId("import-issues-card").getByTestId("import-issue");
  }

  paymentRows() {
    return this.page.getByTestId("import-payment-row");
  }

  async downloadIssues(): Promise<Download> {
    const download = this.page.waitForEvent("download");
    await this.page.getByTestId("import-issues-card").getByTestId("import-download-issues").click();
    return download;
  }
}
