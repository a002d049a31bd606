import type { Page } from "playwright-core";
import type { Need } from "../../src/live/access";
import type { Access, Section } from "../../src/protocol/wire";

export type PresetRole = "owner" | "admin" | "operations" | "finance" | "developer" | "support" | "viewer";

const SECTIONS: Section[] = [
  "customers",
  "mandates",
  "payments",
  "imports",
  "pay_pages",
  "transactions",
  "orders",
  "refunds",
  "exports",
  "payouts",
  "insights",
  "developers",
  "team",
  "history",
  "settings",
];

function grants(writes: Section[], reads: Section[] = []): Record<Section, Access> {
  const matrix = Object.fromEntries(SECTIONS.map((section) => [section, "none"])) as Record<Section, Access>;
  // Every working role reads the business's settings.
  matrix.settings = "read";
  for (const section of reads) matrix[section] = "read";
  for (const section of writes) matrix[section] = "write";
  return matrix;
}

/**
 * What each preset role may do, as the product's role table says (written out here on purpose,
 * not taken from the app: the walk checks the app against it).
 */
export const PRESET_GRANTS: Record<PresetRole, Record<Section, Access>> = {
  owner: grants(SECTIONS),
  admin: grants(SECTIONS),
  operations: grants(["customers", "mandates", "payments", "imports", "pay_pages"]),
  finance: grants(["transactions", "orders", "refunds", "exports", "payouts", "insights"]),
  developer: grants(["developers"], ["payments"]),
  support: grants(["customers"], ["payments"]),
  viewer: grants([], SECTIONS.filter((section) => section !== "developers")),
};

/** Whether `role` may use a control needing `need`. */
export function roleAllows(role: PresetRole, need: Need): boolean {
  if (need === "owner") return role === "owner";
  const [section, access] = need.split(":") as [Section, "read" | "write"];
  const granted = PRESET_GRANTS[role][section];
  return access === "read" ? granted !== "none" : granted === "write";
}

/** One control that says what it needs, as the screen shows it. */
export type SeenControl = { need: Need; enabled: boolean; refusedByRole: boolean; reason: string; testId: string };

const ENABLED = (need: Need) => `[data-needs="${need}"]:not(:disabled):not([aria-disabled="true"])`;

/** A screen of the walk: where it is, what says it is there, and the controls it offers those who may. */
export type WalkScreen = { name: string; path: string; ready: string; offers: Need[] };

/** Walks screens as one member, reading every control that names what it needs. */
export class RoleWalk {
  constructor(private readonly page: Page) {}

  /** The ready mark of the screen opened last. */
  private previous = "";

  /**
   * Opens `screen`: by loading the page (`reload`, for the walk's first screen and after a change
   * of language), or as the app's own links do, without a reload or a new socket.
   */
  async open(screen: WalkScreen, how: "reload" | "link" = "link"): Promise<void> {
    if (how === "reload") {
      await this.page.goto(screen.path);
      // A screen the role may not read may show only why (its title, or a not-found page).
      await this.page.locator(`[data-testid="${screen.ready}"], main h1`).first().waitFor();
    } else {
      await this.page.evaluate((path) => {
        // The title shown before, so that the wait below is for the next screen's.
        for (const title of document.querySelectorAll("main h1")) title.setAttribute("data-walk-seen", title.textContent ?? "");
        history.pushState(null, "", path);
        dispatchEvent(new PopStateEvent("popstate"));
      }, screen.path);
      await this.page.waitForFunction(
        ({ ready, previous }) => {
          if (document.querySelector(`[data-testid="${ready}"]`)) return true;
          if (previous !== "" && document.querySelector(`[data-testid="${previous}"]`)) return false;
          const title = document.querySelector("main h1");
          return title !== null && title.getAttribute("data-walk-seen") !== title.textContent;
        },
        { ready: screen.ready, previous: this.previous },
      );
    }
    this.previous = screen.ready;
    // Records arrive over the socket after the screen is drawn: give them a moment to.
    await this.page
      .waitForFunction(() => document.querySelectorAll("main .spinner").length === 0, undefined, { timeout: 5_000 })
      .catch(() => undefined);
  }

  /** Waits until a control needing `need` is there and usable (for a role that may use it). */
  async waitForUsable(need: Need): Promise<void> {
    await this.page.locator(ENABLED(need)).first().waitFor({ timeout: 10_000 });
  }

  async controls(): Promise<SeenControl[]> {
    return this.page.locator("[data-needs]").evaluateAll((elements) =>
      elements.map((element) => {
        const refusedByRole = element.getAttribute("aria-disabled") === "true";
        return {
          need: element.getAttribute("data-needs") as Need,
          enabled: !element.matches(":disabled") && !refusedByRole,
          refusedByRole,
          reason: element.getAttribute("title") ?? "",
          testId: element.getAttribute("data-testid") ?? element.textContent?.trim() ?? "",
        };
      }),
    );
  }
}
