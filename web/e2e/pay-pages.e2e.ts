import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, type Session } from "./browser";
import { signUpFresh } from "./flows";
import { PayPagesPage } from "./pages/CommercePages";
import { Shell } from "./pages/Shell";

describe("payment pages, made in one tab and seen live in another", () => {
  let session: Session;
  let tabA: Page;
  let tabB: Page;

  beforeAll(async () => {
    session = await openBrowser();
    tabA = await session.newPage();
    await signUpFresh(tabA, "pay-pages");
    tabB = await session.newPage();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("creates a fixed card and instant EFT page, shares it, edits it and deactivates it", async () => {
    const pagesA = new PayPagesPage(tabA);
    const pagesB = new PayPagesPage(tabB);
    await pagesA.open();
    await new Shell(tabA).waitUntilLive();
    await pagesB.open();
    await new Shell(tabB).waitUntilLive();
    await tabB.getByTestId("pay-pages-empty").waitFor();

    await pagesA.startNew();
    // The form's own checks speak first, beside the fields.
    await pagesA.submit();
    await pagesA.dialog().getByText("This field is required").first().waitFor();
    expect(await pagesA.dialog().locator('[aria-invalid="true"]').count()).toBeGreaterThanOrEqual(3);

    await pagesA.fill({ title: "Karoo Gym day pass", reference: "DAYPASS", description: "One day in the gym, towel included.", amount: "150" });
    await pagesA.chooseMethods(["card", "instant_eft"]);
    await pagesA.submitAndClose();

    const row = pagesA.row("Karoo Gym day pass");
    await row.waitFor();
    expect(await row.getByTestId("pay-page-amount").innerText()).toContain("150");
    expect(await row.getByTestId("pay-page-state").getAttribute("data-state")).toBe("active");
    const id = await row.getAttribute("data-page-id");
    expect(id).toMatch(/\S+/);
    const link = `${session.baseURL}/pay/${id}`;
    expect(await row.getByTestId("pay-page-link").innerText()).toBe(link);

    // The other tab sees the page arrive without a reload.
    await pagesB.row("Karoo Gym day pass").waitFor();

    const share = await pagesA.share("Karoo Gym day pass");
    expect(await share.getByTestId("share-link").inputValue()).toBe(link);
    const qr = share.getByTestId("share-qr");
    await qr.waitFor();
    expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml/);
    expect(await qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    await tabA.keyboard.press("Escape");
    await share.waitFor({ state: "detached" });

    await pagesA.edit("Karoo Gym day pass");
    expect(await pagesA.dialog().getByTestId("page-amount-input").inputValue()).toBe("150");
    await pagesA.fill({ title: "Karoo Gym weekend pass", amount: "275.50", maxUses: "40" });
    await pagesA.submitAndClose();
    const edited = pagesA.row("Karoo Gym weekend pass");
    await edited.waitFor();
    expect(await edited.getByTestId("pay-page-amount").innerText()).toMatch(/275[,.]50/);
    await pagesB.row("Karoo Gym weekend pass").waitFor();
    expect(await tabB.getByTestId("pay-page-row").count()).toBe(1);

    await edited.getByTestId("pay-page-toggle").click();
    await edited.locator('[data-testid="pay-page-state"][data-state="inactive"]').waitFor();
    await pagesB.row("Karoo Gym weekend pass").locator('[data-testid="pay-page-state"][data-state="inactive"]').waitFor();

    // The public page says it is not taking payments; its content is the backend's to test.
    const response = await tabA.request.get(link);
    expect(response.status()).toBeLessThan(500);
  });
});
