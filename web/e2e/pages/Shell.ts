import type { Page } from "playwright-core";

/** The signed-in frame: header menus and the live connection. */
export class Shell {
  constructor(private readonly page: Page) {}

  async waitUntilLive(): Promise<void> {
    await this.page.locator('[data-testid="connection-state"][data-state="online"]').waitFor();
  }

  merchantName() {
    return this.page.getByTestId("merchant-name");
  }

  async signOut(): Promise<void> {
    await this.page.getByTestId("user-menu").click();
    await this.page.getByTestId("sign-out").click();
  }

  async chooseMode(mode: "live" | "test"): Promise<void> {
    await this.page.getByTestId("user-menu").click();
    await this.page.getByTestId(`mode-${mode}`).click();
  }

  async chooseLanguage(language: "en" | "afr"): Promise<void> {
    await this.page.getByTestId("language-switch").click();
    await this.page.getByTestId(`language-${language}`).click();
  }

  async chooseTheme(theme: "light" | "dark" | "system"): Promise<void> {
    await this.page.getByTestId("theme-switch").click();
    await this.page.getByTestId(`theme-${theme}`).click();
  }

  async htmlHasDark(): Promise<boolean> {
    return this.page.evaluate(() => document.documentElement.classList.contains("dark"));
  }

  nav() {
    return this.page.getByRole("navigation");
  }
}
