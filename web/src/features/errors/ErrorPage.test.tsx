import i18next from "i18next";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { MemoryRouter } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import en from "../../../../locales/en.json";
import { ErrorView } from "./ErrorPage";

const i18n = i18next.createInstance();

beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: "en", resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});

function render(variant: "not-found" | "server-error", path: string): string {
  return renderToString(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <ErrorView variant={variant} path={path} />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

describe("error page", () => {
  it("has a not-found variant that names the path", () => {
    const html = render("not-found", "/no/such/page");
    expect(html).toContain("Page Not Found");
    expect(html).toContain("Page not found: /no/such/page");
  });

  it("has a server-error variant", () => {
    const html = render("server-error", "/customers");
    expect(html).toContain("Internal Server Error");
    expect(html).not.toContain("Page Not Found");
  });
});
