import { describe, expect, it } from "vitest";
import { sampleBusinessInfo } from "../../live/testing";
import { edit, isDirty, receive, reload, saved, startDraft, trimmed } from "./draft";

const original = sampleBusinessInfo();
const teammate = sampleBusinessInfo({ tradingName: "Karoo Fitness" });

describe("business info draft", () => {
  it("fills an untouched form with whatever arrives", () => {
    const form = receive(startDraft(original), teammate, false);
    expect(form.draft).toEqual(teammate);
    expect(isDirty(form)).toBe(false);
    expect(form.incoming).toBeNull();
  });

  it("keeps what the user typed and holds a teammate's change back", () => {
    const editing = edit(startDraft(original), "vatNumber", "4999999999");
    const form = receive(editing, teammate, false);
    expect(form.draft.vatNumber).toBe("4999999999");
    expect(form.draft.tradingName).toBe("Karoo Gym");
    expect(form.incoming).toEqual(teammate);
    const reloaded = reload(form);
    expect(reloaded.draft).toEqual(teammate);
    expect(isDirty(reloaded)).toBe(false);
    expect(reloaded.incoming).toBeNull();
  });

  it("takes our own save quietly, even when the server tidies the values", () => {
    const editing = edit(startDraft(original), "statementName", " KAROOFIT ");
    const sent = trimmed(editing.draft);
    const afterReply = saved(editing, sent);
    const tidied = { ...sent, supportPhone: "+27 49 123 4567" };
    const form = receive(afterReply, tidied, false);
    expect(form.draft).toEqual(tidied);
    expect(form.incoming).toBeNull();
  });

  it("takes the delta of our own save that arrives before the reply", () => {
    const editing = edit(startDraft(original), "industry", "Gyms");
    const form = receive(editing, { ...original, industry: "Gyms" }, true);
    expect(form.draft.industry).toBe("Gyms");
    expect(form.incoming).toBeNull();
  });

  it("does not call a refetch of the same values a teammate's change", () => {
    const editing = edit(startDraft(original), "industry", "Gyms");
    const form = receive(editing, { ...original }, false);
    expect(form.incoming).toBeNull();
    expect(form.draft.industry).toBe("Gyms");
  });

  it("edits on from our own save's version when its delta came before its reply", () => {
    const sent = { ...original, tradingName: "Karoo Fitness" };
    const ours = { ...sent, version: original.version + 1 };
    const beforeReply = receive(edit(startDraft(original), "tradingName", "Karoo Fitness"), ours, true);
    expect(saved(beforeReply, sent).baseline.version).toBe(ours.version);
  });
});
