import { describe, expect, it } from "vitest";
import { isTyping, opensSearch } from "./shortcut";

const key = (key: string, more: Partial<Parameters<typeof opensSearch>[0]> = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  isComposing: false,
  defaultPrevented: false,
  target: { tagName: "BODY" },
  ...more,
});

describe("the search shortcut", () => {
  it("opens on / and on Ctrl or Cmd+K", () => {
    expect(opensSearch(key("/"))).toBe(true);
    expect(opensSearch(key("k", { ctrlKey: true }))).toBe(true);
    expect(opensSearch(key("K", { metaKey: true }))).toBe(true);
    expect(opensSearch(key("k"))).toBe(false);
    expect(opensSearch(key("k", { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(opensSearch(key("/", { ctrlKey: true }))).toBe(false);
  });

  it("leaves the keys to a field being typed in", () => {
    for (const target of [{ tagName: "INPUT", type: "text" }, { tagName: "INPUT", type: "search" }, { tagName: "TEXTAREA" }, { tagName: "SELECT" }, { tagName: "DIV", isContentEditable: true }]) {
      expect(isTyping(target)).toBe(true);
      expect(opensSearch(key("/", { target }))).toBe(false);
      expect(opensSearch(key("k", { ctrlKey: true, target }))).toBe(false);
    }
    expect(opensSearch(key("/", { target: { tagName: "INPUT", type: "checkbox" } }))).toBe(true);
    expect(opensSearch(key("/", { target: { tagName: "BUTTON" } }))).toBe(true);
  });

  it("does not take a key already handled or mid-composition", () => {
    expect(opensSearch(key("/", { defaultPrevented: true }))).toBe(false);
    expect(opensSearch(key("/", { isComposing: true }))).toBe(false);
  });
});
