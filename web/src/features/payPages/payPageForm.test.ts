import { describe, expect, it } from "vitest";
import { samplePayPage } from "../../live/testing";
import { draftFromPage, emptyPayPageDraft, payPageInputFrom, toggleMethod, withKind, type PayPageDraft } from "./payPageForm";

const TODAY = "2026-03-10";

function draft(overrides: Partial<PayPageDraft> = {}): PayPageDraft {
  return { ...emptyPayPageDraft(), title: "Day pass", reference: "DAYPASS", amount: "150", ...overrides };
}

describe("pay page form", () => {
  it("turns a fixed once-off page into its input, empty options left off the wire", () => {
    const built = payPageInputFrom(draft({ title: "  Day pass ", description: " One day ", amount: "1 250,50", colour: "#0F766E" }), TODAY);
    expect(built.errors).toEqual({});
    expect(built.input).toEqual({
      title: "Day pass",
      description: "One day",
      amountMode: "fixed",
      amountCents: 125050,
      kind: "once",
      methods: ["card", "instant_eft"],
      reference: "DAYPASS",
      colour: "#0f766e",
    });
  });

  it("sends a payer-chosen recurring page with its bounds, interval and limits", () => {
    const recurring = withKind(draft({ amountMode: "payer_chosen", min: "50", max: "500", amount: "" }), "recurring");
    const built = payPageInputFrom(
      { ...recurring, interval: "annually", expiresOn: "2026-12-31", maxUses: "100", successUrl: "https://karoogym.co.za/thanks" },
      TODAY,
    );
    expect(built.input).toMatchObject({
      amountMode: "payer_chosen",
      minCents: 5000,
      maxCents: 50000,
      kind: "recurring",
      interval: "annually",
      methods: ["card"],
      expiresOn: "2026-12-31",
      maxUses: 100,
      successUrl: "https://karoogym.co.za/thanks",
    });
    expect(built.input).not.toHaveProperty("amountCents");
  });

  it("marks what the server would refuse, beside the same fields", () => {
    const built = payPageInputFrom(
      draft({
        title: "",
        description: "x".repeat(501),
        amount: "0",
        methods: [],
        expiresOn: "2026-03-09",
        maxUses: "0",
        reference: "R".repeat(31),
        successUrl: "http://karoogym.co.za",
        colour: "teal",
      }),
      TODAY,
    );
    expect(built.input).toBeNull();
    expect(built.errors).toEqual({
      title: "required",
      description: "too_long",
      amountCents: "invalid_amount",
      methods: "required",
      expiresOn: "date_in_past",
      maxUses: "invalid_number",
      reference: "too_long",
      successUrl: "invalid_url",
      colour: "invalid_colour",
    });
  });

  it("wants both bounds of a payer-chosen amount, the minimum not above the maximum", () => {
    expect(payPageInputFrom(draft({ amountMode: "payer_chosen", min: "", max: "abc" }), TODAY).errors).toEqual({ minCents: "required", maxCents: "invalid_amount" });
    expect(payPageInputFrom(draft({ amountMode: "payer_chosen", min: "500", max: "50" }), TODAY).errors).toEqual({ minCents: "minimum_above_maximum" });
    expect(payPageInputFrom(draft({ amountMode: "payer_chosen", min: "50", max: "50" }), TODAY).errors).toEqual({});
  });

  it("refuses a method the page's kind does not take, and a date that is not one", () => {
    expect(payPageInputFrom(draft({ methods: ["debicheck"] }), TODAY).errors).toEqual({ methods: "method_not_for_page" });
    expect(payPageInputFrom(draft({ kind: "recurring", interval: "monthly", methods: ["debicheck"] }), TODAY).errors).toEqual({});
    expect(payPageInputFrom(draft({ kind: "recurring", interval: "monthly", methods: ["debicheck"], amountMode: "payer_chosen", min: "50", max: "500" }), TODAY).errors).toEqual({ methods: "method_not_for_page" });
    expect(payPageInputFrom(draft({ expiresOn: "2026-02-30" }), TODAY).errors).toEqual({ expiresOn: "invalid_date" });
    expect(payPageInputFrom(draft({ expiresOn: TODAY }), TODAY).errors).toEqual({});
  });

  it("keeps the methods both kinds share when the kind changes", () => {
    const once = draft({ methods: ["card", "instant_eft"] });
    expect(withKind(once, "recurring").methods).toEqual(["card"]);
    expect(withKind(draft({ methods: ["instant_eft"] }), "recurring").methods).toEqual(["card"]);
    expect(toggleMethod(withKind(once, "recurring"), "debicheck", true).methods).toEqual(["card", "debicheck"]);
    expect(toggleMethod(once, "debicheck", true).methods).toEqual(["card", "instant_eft"]);
    expect(toggleMethod(once, "card", false).methods).toEqual(["instant_eft"]);
  });

  it("edits an existing page from what it holds", () => {
    const page = samplePayPage({ amountCents: 15050, maxUses: 20, expiresOn: "2026-06-30", successUrl: "https://example.co.za/ok" });
    const editing = draftFromPage(page);
    expect(editing).toMatchObject({ amount: "150.50", maxUses: "20", expiresOn: "2026-06-30", successUrl: "https://example.co.za/ok", min: "" });
    expect(payPageInputFrom(editing, TODAY).input).toMatchObject({ amountCents: 15050, maxUses: 20 });
  });
});
