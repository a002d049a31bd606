import axe from "axe-core";
import type { Page } from "playwright-core";

// The rules the product holds itself to: WCAG 2.1, levels A and AA.
const OPTIONS: axe.RunOptions = {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
  // Only what fails is gathered in full: listing every passing node is most of a run's time.
  resultTypes: ["violations"],
  // Still marked experimental in axe-core, so off unless asked for: a voice user says what a
  // control shows ("EN"), which its accessible name must contain (WCAG 2.5.3).
  rules: { "label-content-name-mismatch": { enabled: true } },
};
const BLOCKING = new Set(["serious", "critical"]);

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] };

/**
 * Waits until the page's CSS transitions are over. Colours ease from one theme to the other:
 * measured or captured mid-way, a colour is neither theme's. Transitions only, as a spinner's
 * animation never ends.
 */
export async function transitionsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Runs axe-core on the page as it is and answers with its serious and critical findings, each
 * written so a failing run says what to fix and where; what `skip` selects is left out (a part
 * already checked on an earlier screen). The engine is put into the page once and stays while
 * the app moves between screens without a reload.
 */
export async function seriousViolations(page: Page, where: string, skip: string[] = []): Promise<string[]> {
  // Evaluated, not added as a <script>: the app's content security policy refuses inline scripts.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  await transitionsDone(page);
  const violations = await page.evaluate(async ({ options, skip }) => {
    const engine = (window as unknown as { axe: typeof axe }).axe;
    const context = skip.length > 0 ? { exclude: skip.map((selector) => [selector]) } : document;
    const results = await engine.run(context as axe.ElementContext, options);
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target.map(String), failureSummary: node.failureSummary })),
    }));
  }, { options: OPTIONS, skip });
  return (violations as Violation[])
    .filter((violation) => BLOCKING.has(violation.impact ?? ""))
    .map((violation) => {
      const nodes = violation.nodes.slice(0, 3).map((node) => {
        // For contrast, the summary's second line carries the measured ratio and the colours.
        const detail = node.failureSummary?.split("\n").slice(1, 2).join("").trim() ?? "";
        return `    ${node.target.join(" ")}${detail ? ` (${detail})` : ""}`;
      });
      const more = violation.nodes.length > 3 ? `\n    …and ${violation.nodes.length - 3} more` : "";
      return `${where}: ${violation.id} [${violation.impact}] ${violation.help}\n${nodes.join("\n")}${more}`;
    });
}
