import type { Page } from "playwright-core";

/** Where the focus is, for a failure to say. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return "nothing";
    const testId = element.closest("[data-testid]")?.getAttribute("data-testid");
    return `${element.tagName.toLowerCase()}${testId ? ` in ${testId}` : ""} "${(element.textContent ?? "").trim().slice(0, 40)}"`;
  });
}

/** The keyboard alone: moves the focus with Tab, and checks the focus can be seen wherever it lands. */
export class Keyboard {
  constructor(private readonly page: Page) {}

  /**
   * Presses Tab (Shift+Tab with `back`) until the focus is on, or inside, what `selector`
   * matches, and checks it shows a focus ring there and at every stop on the way.
   */
  async tabTo(selector: string, { back = false, presses = 100 } = {}): Promise<void> {
    for (let press = 0; press < presses; press += 1) {
      if (await this.isOn(selector)) return this.expectVisibleFocus();
      await this.page.keyboard.press(back ? "Shift+Tab" : "Tab");
      // Tab past the page's last control leaves the focus with the browser for a moment.
      if (await this.page.evaluate(() => document.activeElement && document.activeElement !== document.body)) await this.expectVisibleFocus();
    }
    if (await this.isOn(selector)) return this.expectVisibleFocus();
    throw new Error(`${presses} presses of Tab never reached ${selector}; the focus is on ${await focused(this.page)}`);
  }

  async isOn(selector: string): Promise<boolean> {
    return this.page.evaluate((selector) => {
      const element = document.activeElement;
      return Boolean(element && element !== document.body && (element.matches(selector) || element.closest(selector)));
    }, selector);
  }

  /**
   * The focused element draws an outline or a ring (the theme's focus token), as :focus-visible.
   * A control that is there but unseen (a file input drawn as the button of its label) has its
   * label draw the outline instead: a ring on an invisible element is no ring at all.
   */
  async expectVisibleFocus(): Promise<void> {
    const seen = await this.page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return false;
      // Focus inside the browser's own parts of a control (a date field's calendar button) leaves
      // the control itself :focus-within only; the control must still show the ring.
      const inOwnParts = !element.matches(":focus") && element.matches(":focus-within");
      if (!inOwnParts && !element.matches(":focus-visible")) return false;
      const outlined = (style: CSSStyleDeclaration) => style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      const unseen = parseFloat(style.opacity) === 0 || box.width <= 1 || box.height <= 1;
      if (!unseen) return outlined(style) || style.boxShadow !== "none";
      const labels = element instanceof HTMLInputElement ? [...(element.labels ?? [])] : [];
      return labels.some((label) => label.getBoundingClientRect().width > 1 && outlined(getComputedStyle(label)));
    });
    if (!seen) throw new Error(`the focus on ${await focused(this.page)} cannot be seen`);
  }

  /**
   * Types an ISO date into the focused date field, segment by segment. Chromium lays the field
   * out in the browser's own language (month, day, year here), not the page's.
   */
  async typeDate(iso: string): Promise<void> {
    const [year, month, day] = iso.split("-");
    await this.page.keyboard.type(`${month}${day}${year}`);
  }

  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }
}

/** A selector for the element with `testId`. */
export function byTestId(testId: string): string {
  return `[data-testid="${testId}"]`;
}
