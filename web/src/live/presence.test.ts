import { describe, expect, it } from "vitest";
import { onPath } from "./presence";

describe("onPath", () => {
  const members = [
    { userId: "me", name: "Thandi", viewing: ["/customers/cus_1", "/customers/cus_1"] },
    { userId: "u2", name: "Pieter", viewing: ["/customers/cus_1"], editing: ["/customers/cus_1"] },
    { userId: "u3", name: "Lerato", viewing: ["/payments"] },
  ];

  it("names teammates on the path, who of them is editing, and my other tab", () => {
    const here = onPath(members, "/customers/cus_1", "me");
    expect(here.viewers.map((m) => m.name)).toEqual(["Pieter"]);
    expect(here.editors.map((m) => m.name)).toEqual(["Pieter"]);
    expect(here.myOtherTab).toBe(true);
  });

  it("shows nobody on a path no teammate is on", () => {
    const here = onPath(members, "/customers", "me");
    expect(here.viewers).toEqual([]);
    expect(here.myOtherTab).toBe(false);
  });
});
