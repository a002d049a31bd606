import type { Page } from "playwright-core";

export type Mode = "live" | "test";

/** Which business and mode a tab shows: its address, its header, and the switches in both. */
export class TabPlace {
  constructor(private readonly page: Page) {}

  business(): string | null {
    return new URL(this.page.url()).searchParams.get("business");
  }

  mode(): string | null {
    return new URL(this.page.url()).searchParams.get("mode");
  }

  /** Waits until the address names the business (its id) and the mode. */
  async waitForAddress(businessId: string, mode: Mode, pathname?: string): Promise<void> {
    await this.page.waitForURL(
      (url) => url.searchParams.get("business") === businessId && url.searchParams.get("mode") === mode && (pathname === undefined || url.pathname === pathname),
    );
  }

  /** Waits until the address names a business at all (the server chose one for a bare address). */
  async businessInAddress(): Promise<string> {
    await this.page.waitForURL((url) => url.searchParams.has("business"));
    return this.business() ?? "";
  }

  merchantName() {
    return this.page.getByTestId("merchant-name");
  }

  testStrip() {
    return this.page.getByTestId("test-strip");
  }

  /** Waits until the header says the tab shows `businessName` in `mode`. */
  async waitForHeader(businessName: string, mode: Mode): Promise<void> {
    await this.page.getByTestId("merchant-name").filter({ hasText: businessName }).waitFor();
    await this.testStrip().waitFor({ state: mode === "test" ? "visible" : "hidden" });
  }

  async chooseBusiness(name: string): Promise<void> {
    await this.page.getByTestId("user-menu").click();
    await this.page.getByRole("menuitemradio", { name }).click();
  }

  async chooseMode(mode: Mode): Promise<void> {
    const toggle = this.page.getByTestId("mode-switch");
    if ((await toggle.getAttribute("aria-checked")) !== String(mode === "test")) await toggle.click();
  }

  notice() {
    return this.page.getByTestId("notice");
  }

  /** On a record page that found nothing here: where the record is, and the way there. */
  elsewhere() {
    return this.page.getByTestId("record-elsewhere");
  }

  async openElsewhere(): Promise<void> {
    await this.page.getByTestId("record-elsewhere-open").click();
  }
}

/** The owner's side of the team: inviting people and removing them. */
export class TeamAdmin {
  constructor(private readonly page: Page) {}

  async invite(email: string, role: string): Promise<void> {
    await this.page.goto("/account/teams");
    await this.page.getByTestId("members-table").waitFor();
    await this.page.getByTestId("invite-member").click();
    await this.page.getByTestId("invite-email").fill(email);
    await this.page.getByTestId("invite-role").selectOption(role);
    await this.page.getByTestId("send-invite").click();
    await this.page.getByTestId(`invite-${email}`).waitFor();
  }

  async remove(email: string): Promise<void> {
    await this.page.goto("/account/teams");
    await this.page.getByTestId(`member-${email}`).getByRole("link").click();
    await this.page.getByTestId("remove-member").click();
    await this.page.getByTestId("remove-dialog").getByTestId("confirm-action").click();
    await this.page.waitForURL((url) => url.pathname === "/account/teams");
  }
}
