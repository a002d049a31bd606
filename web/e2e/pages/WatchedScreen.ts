import type { Locator, Page } from "playwright-core";
import { Shell } from "./Shell";

const MARK = "e2eStillOpen";

/**
 * A screen one person keeps open while a teammate changes what it shows. It is marked once it
 * has read what it shows, so that seeing the change later proves it came without a reload: a
 * reload (or a navigation that loads the page anew) takes the mark away.
 */
export class WatchedScreen {
  constructor(private readonly page: Page) {}

  /**
   * Opens `path` and waits until `loaded` shows (the screen has read what it shows). A screen
   * without the app's frame (the statement) has no connection badge or test strip to wait for.
   */
  async open(path: string, loaded: Locator, { framed = true }: { framed?: boolean } = {}): Promise<void> {
    await this.page.goto(path);
    if (framed) {
      await new Shell(this.page).waitUntilLive();
      // Every screen of the walk shows test data: the tab remembers the mode it was switched to.
      await this.page.getByTestId("test-strip").waitFor();
    }
    await loaded.first().waitFor();
    await this.page.evaluate((mark) => Object.assign(window, { [mark]: true }), MARK);
  }

  /** True while the page loaded by `open` is still the one on screen. */
  async stillOpen(): Promise<boolean> {
    return this.page.evaluate((mark) => (window as unknown as Record<string, unknown>)[mark] === true, MARK);
  }
}
