import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openBrowser, shoot } from "./browser";
import { signUpFresh } from "./flows";
import { BusinessInfoPage } from "./pages/BusinessInfoPage";
import { ProfilePage } from "./pages/ProfilePage";
import { Shell } from "./pages/Shell";

type EdgeLook = "shaded" | "clear" | "mixed";

/** A table in the box it scrolls sideways in (.table-card or .table-scroll). */
class ScrollingTable {
  constructor(
    private readonly page: Page,
    private readonly testId: string,
  ) {}

  private box() {
    return this.page.getByTestId(this.testId).locator("xpath=..");
  }

  async waitFor(): Promise<void> {
    await this.page.getByTestId(this.testId).waitFor();
  }

  /** How many pixels of the table lie past the box's right edge. */
  overflow(): Promise<number> {
    return this.box().evaluate((box) => box.scrollWidth - box.clientWidth);
  }

  async scrollToEnd(): Promise<void> {
    await this.box().evaluate((box) => box.scrollTo({ left: box.scrollWidth }));
  }

  /**
   * How each edge of the box looks as drawn: "shaded" when it is darker than the box's middle
   * in the heading row and the first row alike, "clear" when it is the same. Read from a capture,
   * as the shades are backgrounds: the page's styles are the same whatever the scroll.
   */
  async edges(): Promise<{ left: EdgeLook; right: EdgeLook }> {
    // Where no column has text: just above the heading row's foot (its top is in the box's
    // rounded corner), just below the first row's top.
    const rows = await this.box().evaluate((box) => {
      const top = box.getBoundingClientRect().top;
      const heading = box.querySelector("thead tr")?.getBoundingClientRect();
      const first = box.querySelector("tbody tr")?.getBoundingClientRect();
      if (!heading || !first) throw new Error("the table has no heading row or no rows");
      return [Math.round(heading.bottom - top - 4), Math.round(first.top - top + 3)];
    });
    const capture = await this.box().screenshot();
    const darkness = await this.page.evaluate(
      async ({ bytes, rows }) => {
        const image = await createImageBitmap(new Blob([Uint8Array.from(bytes)], { type: "image/png" }));
        const canvas = new OffscreenCanvas(image.width, image.height);
        const context = canvas.getContext("2d");
        if (!context) throw new Error("no 2d canvas");
        context.drawImage(image, 0, 0);
        const brightness = (x: number, y: number) => {
          const [red, green, blue] = context.getImageData(x, y, 1, 1).data;
          return red + green + blue;
        };
        const middle = Math.floor(image.width / 2);
        // Two pixels in: past the box's one-pixel border.
        const at = (x: number) => rows.map((y) => brightness(middle, y) - brightness(x, y));
        return { left: at(2), right: at(image.width - 3) };
      },
      { bytes: Array.from(capture), rows },
    );
    const look = (values: number[]): EdgeLook => {
      if (values.every((value) => value > 24)) return "shaded";
      return values.every((value) => Math.abs(value) <= 6) ? "clear" : "mixed";
    };
    return { left: look(darkness.left), right: look(darkness.right) };
  }
}

describe("account screens in both languages and colour modes", () => {
  it("switches the interface language from the profile and looks right in afr and dark", async () => {
    const browser = await openBrowser({ colorScheme: "dark" });
    try {
      const page = await browser.newPage();
      const account = await signUpFresh(page, "looks");
      const profile = new ProfilePage(page);
      await profile.open();
      await shoot(page, "profile-en-dark");

      await profile.saveDetails({ name: "Thandi Nkosi-Botha", language: "afr" });
      await page.getByRole("heading", { name: "Profiel", exact: true }).waitFor();
      const cookie = (await browser.context.cookies()).find((entry) => entry.name === "locale");
      expect(cookie?.value).toBe("afr");
      await page.reload();
      await page.getByRole("heading", { name: "Profiel", exact: true }).waitFor();
      await expect.poll(() => page.locator('input[name="name"]').inputValue()).toBe("Thandi Nkosi-Botha");
      await shoot(page, "profile-afr-dark");

      await profile.changePassword(account.password, "new-password-1", "new-password-2");
      await expect.poll(() => profile.passwordCard().locator(".field-error").textContent()).toBe("Die wagwoorde stem nie ooreen nie.");
      await profile.changePassword("wrong-password-here", "new-password-1");
      await expect.poll(() => profile.passwordCard().locator(".field-error").textContent()).toBe("Daardie wagwoord is nie reg nie.");
      await profile.changeEmail("new-address@example.co.za", account.password);
      await expect.poll(() => profile.emailCard().getByTestId("email-change-sent").textContent()).toContain("new-address@example.co.za");
      await shoot(page, "profile-errors-afr-dark");

      const info = new BusinessInfoPage(page);
      await info.open();
      await info.fill({ tradingName: "Karoo Gimnasium" });
      await shoot(page, "business-info-afr-dark");

      const shell = new Shell(page);
      await shell.chooseTheme("light");
      await shoot(page, "business-info-afr-light");
      await profile.open();
      await shoot(page, "profile-afr-light");
      await shell.chooseLanguage("en");
      await shell.chooseTheme("dark");
      await info.open();
      await shoot(page, "business-info-en-dark");

      await shell.chooseLanguage("afr");
      await shell.signOut();
      await page.waitForURL((url) => url.pathname === "/auth/login");
      await page.goto("/auth/forgot");
      await page.getByTestId("forgot-page").waitFor();
      await shoot(page, "forgot-afr-dark");
      await page.goto("/auth/reset/some_token");
      await page.getByTestId("reset-page").waitFor();
      await shoot(page, "reset-afr-dark");
      await page.goto("/auth/2fa/backup");
      await page.getByTestId("backup-page").waitFor();
      await shoot(page, "backup-code-afr-dark");
      await shell.chooseLanguage("en");
    } finally {
      await browser.close();
    }
  });

  it("shades the edge of a table too wide for a phone until it is scrolled to that end", async () => {
    const browser = await openBrowser({ viewport: { width: 390, height: 844 } });
    try {
      const page = await browser.newPage();
      await signUpFresh(page, "narrow-table");
      const shell = new Shell(page);
      for (const [language, theme] of [
        ["en", "light"],
        ["afr", "dark"],
      ] as const) {
        await page.goto("/account/teams");
        await shell.waitUntilLive();
        await shell.chooseLanguage(language);
        await shell.chooseTheme(theme);
        const members = new ScrollingTable(page, "members-table");
        await members.waitFor();
        // The last column (last active) is past the right edge of a 390 px screen.
        expect(await members.overflow()).toBeGreaterThan(50);
        await expect.poll(() => members.edges()).toEqual({ left: "clear", right: "shaded" });
        await shoot(page, `team-phone-${language}-${theme}`);

        await members.scrollToEnd();
        await expect.poll(() => members.edges()).toEqual({ left: "shaded", right: "clear" });
        await shoot(page, `team-phone-scrolled-${language}-${theme}`);
      }
      await shell.chooseLanguage("en");
      await shell.chooseTheme("light");
    } finally {
      await browser.close();
    }
  });
});
