import type { Page } from "playwright-core";

/**
 * Text the screen cuts off, each as where it is and how much it lacks: a box that hides what is
 * past its edge (overflow hidden or clipped, or an ellipsis) while its text needs more room,
 * and any of `mustFit` (boxes that may scroll sideways, but should not need to) that is wider
 * inside than out. Text kept only for screen readers (a 1px or clipped box) is left alone.
 */
export async function clippedText(page: Page, mustFit: string[] = []): Promise<string[]> {
  return page.evaluate((mustFit) => {
    const found: string[] = [];
    const name = (element: Element) => `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).trim().split(/\s+/).join(".")}` : ""}`;
    const text = (element: Element) => (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 60);
    for (const element of document.querySelectorAll<HTMLElement>("main *")) {
      if (element.clientWidth <= 1 || !text(element)) continue;
      const style = getComputedStyle(element);
      // Text for screen readers only: clipped to nothing, whatever padding its box keeps.
      if (style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath.includes("inset(50%)")) continue;
      const hides = style.overflowX === "hidden" || style.overflowX === "clip" || style.textOverflow === "ellipsis";
      if (hides && element.scrollWidth > element.clientWidth + 1) {
        found.push(`${name(element)} "${text(element)}" needs ${element.scrollWidth}px, shows ${element.clientWidth}px`);
      }
    }
    for (const selector of mustFit) {
      for (const element of document.querySelectorAll<HTMLElement>(selector)) {
        if (element.scrollWidth > element.clientWidth + 1) {
          found.push(`${name(element)} "${text(element)}" is ${element.scrollWidth}px wide inside, ${element.clientWidth}px outside`);
        }
      }
    }
    return found;
  }, mustFit);
}
