import type { Download, Page } from "playwright-core";

export type ChartName = "collected" | "successRate" | "unpaidReasons" | "unpaidRatio" | "disputeRatio" | "forecast";

export class Insights {
  constructor(private readonly page: Page) {}

  async open(query = ""): Promise<void> {
    await this.page.goto(`/insights${query}`);
    await this.waitForFigures();
  }

  async waitForFigures(): Promise<void> {
    await this.page.getByTestId("chart-collected").waitFor();
  }

  chart(name: ChartName) {
    return this.page.getByTestId(`chart-${name}`);
  }

  canvas(name: ChartName) {
    return this.page.getByTestId(`chart-${name}-canvas`);
  }

  table(name: ChartName) {
    return this.page.getByTestId(`chart-${name}-table`);
  }

  async showTable(name: ChartName): Promise<void> {
    await this.page.getByTestId(`chart-${name}-toggle`).click();
    await this.table(name).waitFor();
  }

  /** The table's body cells, row by row, as the screen shows them. */
  async rows(name: ChartName): Promise<string[][]> {
    return this.table(name)
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "")));
  }

  async downloadCsv(name: ChartName): Promise<Download> {
    const download = this.page.waitForEvent("download");
    await this.page.getByTestId(`chart-${name}-csv`).click();
    return download;
  }

  async chooseBucket(bucket: "day" | "week" | "month"): Promise<void> {
    await this.page.getByTestId(`insights-bucket-${bucket}`).click();
  }
}
