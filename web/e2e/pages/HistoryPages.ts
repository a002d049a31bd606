import { readFileSync } from "node:fs";
import Papa from "papaparse";
import type { Download, Locator, Page } from "playwright-core";

export class HistoryListPage {
  constructor(private readonly page: Page) {}

  async open(query = ""): Promise<void> {
    await this.page.goto(`/account/history${query}`);
    await this.page.getByTestId("history-page").waitFor();
  }

  rows(): Locator {
    return this.page.getByTestId("history-row");
  }

  /** The row whose "what" reads like `Customer · Created`. */
  row(what: string): Locator {
    return this.rows().filter({ has: this.page.getByTestId("history-what").getByText(what, { exact: true }) });
  }

  /** The name of the record a row is about (a token's name, an endpoint's URL), if it has one. */
  recordName(row: Locator): Locator {
    return row.getByTestId("history-record-name");
  }

  async filterByPerson(name: string): Promise<void> {
    await this.page.getByTestId("filter-person").selectOption({ label: name });
  }

  async exportCsv(): Promise<Download> {
    const download = this.page.waitForEvent("download");
    await this.page.getByTestId("export-csv").click();
    return download;
  }

  /** The rows of an exported file, its header first. */
  async csvOf(download: Download): Promise<string[][]> {
    const text = readFileSync(await download.path(), "utf8").replace(/^\ufeff/, "");
    return Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data;
  }

  async filterByAction(label: string): Promise<void> {
    await this.page.getByTestId("filter-action").selectOption({ label });
  }
}

export class HistoryEntryPage {
  constructor(private readonly page: Page) {}

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("history-entry").waitFor();
    await this.page.getByTestId("history-changes").waitFor();
  }

  title(): Locator {
    return this.page.locator(".page-title");
  }

  change(field: string): Locator {
    return this.page.locator(`[data-testid="history-change"][data-field="${field}"]`);
  }

  /** The field's label as the merchant reads it (the row keeps the raw name in `data-field`). */
  fieldLabel(field: string): Locator {
    return this.change(field).getByTestId("history-field-label");
  }

  /** The field's value before (0) or after (1) the change. */
  value(field: string, side: 0 | 1): Locator {
    return this.change(field).locator("td").nth(side + 1);
  }

  recordLink(): Locator {
    return this.page.getByTestId("entry-record-link");
  }

  /** The record's name and the label it goes by ("Token name", "Endpoint URL"). */
  recordName(): Locator {
    return this.page.getByTestId("entry-record-name");
  }

  recordNameLabel(): Locator {
    return this.recordName().locator("xpath=preceding-sibling::dt");
  }
}
