import type { Page } from "playwright-core";

/** The header's search box, driven by the keyboard. */
export class SearchBox {
  constructor(private readonly page: Page) {}

  dialog() {
    return this.page.getByTestId("search-dialog");
  }

  input() {
    return this.page.getByTestId("search-input");
  }

  status() {
    return this.page.getByTestId("search-status");
  }

  group(kind: string) {
    return this.page.getByTestId(`search-group-${kind}`);
  }

  hits() {
    return this.page.getByTestId("search-hit");
  }

  /** The hit the arrow keys are on. */
  selected() {
    return this.page.locator('[data-testid="search-hit"][aria-selected="true"]');
  }

  /** Opens with a shortcut ("/" or Control+K) pressed outside any field. */
  async openWith(shortcut: "/" | "Control+k"): Promise<void> {
    await this.page.keyboard.press(shortcut);
    await this.dialog().waitFor();
  }

  async type(text: string): Promise<void> {
    await this.input().fill("");
    await this.page.keyboard.type(text);
  }

  /** Types `text` and waits until its hits are in (the status line empties). */
  async search(text: string): Promise<void> {
    await this.type(text);
    await this.page.locator('[data-testid="search-status"][aria-busy="false"]').waitFor({ state: "attached" });
    await this.hits().first().waitFor();
  }
}
