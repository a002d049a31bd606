import { describe, expect, it } from "vitest";
import { viewedScreens } from "./viewedScreens";

describe("viewedScreens", () => {
  it("names each page a member's tabs show once", () => {
    expect(viewedScreens(["/", "/account/teams", "/home", "/account/teams"])).toEqual(["home", "teams"]);
    expect(viewedScreens(["/customers/cus_1"])).toEqual(["customer"]);
  });

  it("leaves out paths the app has no page for", () => {
    expect(viewedScreens(["/nowhere", "/customers/bad.id"])).toEqual([]);
    expect(viewedScreens(undefined)).toEqual([]);
  });
});
