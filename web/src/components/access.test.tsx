import i18next from "i18next";
import { createStore, Provider } from "jotai";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import en from "../../../locales/en.json";
import { identityAtom } from "../live/atoms";
import { everySection } from "../live/permissions";
import type { MerchantView } from "../protocol/wire";
import { Button } from "./Button";
import { ErrorAlert } from "./ErrorAlert";
import { RoleLock } from "./RoleLock";

const i18n = i18next.createInstance();

beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: "en", resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});

const VIEWER: MerchantView = { id: "mer_1", name: "Karoo Gym", role: "viewer", permissions: { ...everySection("read"), developers: "none" } };
const ADMIN: MerchantView = { ...VIEWER, role: "admin", permissions: everySection("write") };

function render(merchant: MerchantView, node: ReactNode): string {
  const store = createStore();
  store.set(identityAtom, { user: { id: "usr_1", name: "Thandi", email: "t@example.co.za" }, merchant, mode: "test", merchants: [merchant] });
  return renderToString(
    <I18nextProvider i18n={i18n}>
      <Provider store={store}>{node}</Provider>
    </I18nextProvider>,
  );
}

describe("a control that needs a right", () => {
  const pause = (
    <Button needs="payments:write" onClick={() => undefined}>
      Pause
    </Button>
  );

  it("is refused to a role without it, saying which role and what it lacks", () => {
    const html = render(VIEWER, pause);
    expect(html).toContain('aria-disabled="true"');
    expect(html).toContain('data-needs="payments:write"');
    expect(html).toContain("title=\"Your role (Viewer) can&#x27;t change payments.\"");
  });

  it("works for a role with it, and keeps the owner's rights to the owner", () => {
    expect(render(ADMIN, pause)).not.toContain("aria-disabled");
    const transfer = <Button needs="owner">Transfer</Button>;
    expect(render(ADMIN, transfer)).toContain("Only the business&#x27;s owner can do this. Your role is Admin.");
  });

  it("is left out where asked, for an action on every row", () => {
    const remove = (
      <Button needs="customers:write" whenRefused="hide">
        Remove
      </Button>
    );
    expect(render(VIEWER, remove)).toBe("");
  });
});

describe("a form that needs a right", () => {
  it("shows its fields read-only with the reason to a role that never had it", () => {
    const html = render(
      VIEWER,
      <RoleLock needs="settings:write">
        <input aria-label="Trading name" defaultValue="Karoo Gym" />
      </RoleLock>,
    );
    expect(html).toContain("<fieldset");
    expect(html).toMatch(/<fieldset[^>]*disabled/);
    expect(html).toContain("Your role (Viewer) can&#x27;t change the business&#x27;s settings.");
  });

  it("names the role and the section when a save is refused by role", () => {
    const html = render(
      VIEWER,
      <RoleLock needs="pay_pages:write">
        <ErrorAlert code="forbidden" />
      </RoleLock>,
    );
    expect(html).toContain("Nothing was changed: your role (Viewer) can&#x27;t change payment pages.");
    expect(render(ADMIN, <ErrorAlert code="owners_only" />)).toContain("only the business&#x27;s owner can do this, and your role is Admin.");
    expect(render(ADMIN, <ErrorAlert code="invalid_amount" />)).toContain(en.errors.invalid_amount);
  });
});
