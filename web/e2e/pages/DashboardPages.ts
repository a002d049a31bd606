import type { Download, Locator, Page } from "playwright-core";

/** The Live/Test switch in the header, the test strip and its clock. */
export class TestMode {
  constructor(private readonly page: Page) {}

  strip() {
    return this.page.getByTestId("test-strip");
  }

  async switchOn(): Promise<void> {
    const toggle = this.page.getByTestId("mode-switch");
    if ((await toggle.getAttribute("aria-checked")) !== "true") await toggle.click();
    await this.strip().waitFor();
    await this.page.locator('[data-testid="test-clock-today"][datetime]').waitFor();
  }

  async today(): Promise<string> {
    return (await this.page.getByTestId("test-clock-today").getAttribute("datetime")) ?? "";
  }

  async advance(step: "day" | "week" | "month"): Promise<void> {
    await this.page.getByTestId(`clock-${step}`).click();
  }

  /** Waits until the span has played out and the buttons work again. */
  async waitUntilPlayed(timeout = 60_000): Promise<void> {
    await this.page.locator('[data-testid="clock-month"]:not([disabled])').waitFor({ timeout });
  }

  status() {
    return this.page.getByTestId("test-clock-status");
  }

  /**
   * Advances the clock a day at a time until `done` holds, for at most a week: money moves on
   * business days, so a weekend or a public holiday may lie between. A day's changes reach the
   * page live, so the last day's are given a few seconds to arrive.
   */
  async advanceDaysUntil(done: () => Promise<boolean>, what: string): Promise<void> {
    for (let day = 0; day < 7 && !(await done()); day += 1) {
      await this.advance("day");
      await this.waitUntilPlayed();
    }
    for (const deadline = Date.now() + 5_000; !(await done()); ) {
      if (Date.now() > deadline) throw new Error(`a week of test days went by without ${what}`);
      await this.page.waitForTimeout(200);
    }
  }
}

export class HomeDashboard {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/home");
    await this.waitForFigures();
  }

  async waitForFigures(): Promise<void> {
    await this.page.getByTestId("collected-month").waitFor();
  }

  figure(name: "collected-today" | "collected-month" | "success-rate" | "unpaid-ratio" | "dispute-ratio") {
    return this.page.getByTestId(`${name}-value`);
  }

  feedRows() {
    return this.page.getByTestId("feed-row");
  }

  upcomingRows() {
    return this.page.getByTestId("upcoming-row");
  }
}

export class TransactionsList {
  constructor(private readonly page: Page) {}

  async open(query = ""): Promise<void> {
    await this.page.goto(`/payments/transactions${query}`);
    await this.page.getByTestId("transactions-page").waitFor();
  }

  /** Through the sidebar, as a person moves within the data (live or test) the tab shows. */
  async openFromNav(): Promise<void> {
    await this.page.getByRole("navigation").locator('a[href^="/payments/transactions?"]').click();
    await this.page.getByTestId("transactions-page").waitFor();
  }

  async filterStatus(status: string): Promise<void> {
    await this.page.getByTestId("filter-status").selectOption(status);
  }

  rows() {
    return this.page.getByTestId("transaction-row");
  }

  statuses() {
    return this.page.locator('[data-testid="transaction-row"] [data-testid="transaction-status"]');
  }

  /** The reference the debit went to the bank with, as its row shows it. */
  async referenceOf(row: Locator): Promise<string> {
    return (await row.getByTestId("transaction-reference").textContent()) ?? "";
  }

  async exportCsv(): Promise<Download> {
    const download = this.page.waitForEvent("download");
    await this.page.getByTestId("export-csv").click();
    return download;
  }

  exportOutcome() {
    return this.page.getByTestId("export-outcome");
  }
}

export class TransactionDetail {
  constructor(private readonly page: Page) {}

  async waitForIt(): Promise<void> {
    await this.page.getByTestId("transaction-detail-amount").waitFor();
  }

  historySteps() {
    return this.page.getByTestId("history-step");
  }
}
