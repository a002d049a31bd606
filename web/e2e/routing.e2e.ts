import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, shoot, type Session } from "./browser";
import { signUpFresh } from "./flows";

describe("routes", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowser();
    const page = await session.newPage();
    await signUpFresh(page, "routes");
    await page.close();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("shows the not-found page for an unknown path", async () => {
    const page = await session.newPage();
    await page.goto("/no/such/page");
    const notFound = page.getByTestId("not-found");
    await notFound.waitFor();
    expect(await notFound.textContent()).toContain("Page not found: /no/such/page");
    expect(await notFound.textContent()).toContain("Page Not Found");
    await shoot(page, "not-found-en-light");
    await page.close();
  });

  it("shows the not-found page for an id that cannot be one", async () => {
    const page = await session.newPage();
    await page.goto("/customers/bad.id!");
    const notFound = page.getByTestId("not-found");
    await notFound.waitFor();
    expect(await notFound.textContent()).toContain("Page not found: /customers/bad.id!");
    await page.goto(`/mandates/${"x".repeat(65)}`);
    await page.getByTestId("not-found").waitFor();
    await page.close();
  });

  it("fits a phone screen, with the navigation behind a button", async () => {
    const page = await session.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/customers");
    await page.getByTestId("customers-page").waitFor();
    await shoot(page, "customers-phone-en-light");
    await page.getByRole("button", { name: "Open navigation" }).click();
    await page.getByRole("navigation").getByRole("link", { name: "Transactions" }).click();
    await page.waitForURL((url) => url.pathname === "/payments/transactions");
    await page.getByTestId("transactions-page").waitFor();
    await shoot(page, "transactions-phone-en-light");
    await page.close();
  });
});
