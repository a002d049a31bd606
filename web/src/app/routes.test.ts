import { describe, expect, it } from "vitest";
import { NAV } from "./shell/nav";
import { listPathFor, paramsAreValid, recordPath, routeAt, routes, takesId } from "./routes";

describe("route table", () => {
  it("lists every product route once", () => {
    const paths = routes.map((entry) => entry.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toHaveLength(40);
    expect(paths).toContain("/download/summary");
    expect(paths).not.toContain("/pay/:id");
  });

  it("names the section a member must read for each signed-in screen, and only for those", () => {
    // Home and the member's own profile are everyone's; other signed-in screens need a section.
    const open = routes.filter((entry) => entry.access === "protected" && !entry.section).map((entry) => entry.path);
    expect(open).toEqual(["/", "/home", "/account/profile"]);
    expect(routes.filter((entry) => entry.access !== "protected" && entry.section)).toEqual([]);
    expect(routeAt("/account/payouts")?.section).toBe("payouts");
    expect(routeAt("/payments/pages")?.section).toBe("pay_pages");
    // The menu opens only routes of this table, so each item is shown by its route's section.
    for (const item of NAV.flatMap((group) => group.items)) {
      expect(routeAt(item.path)?.path, item.path).toBe(item.path);
    }
  });

  it("marks which routes take an id", () => {
    const withIds = routes.filter(takesId).map((entry) => entry.path);
    expect(withIds).toContain("/customers/:id");
    expect(withIds).toContain("/account/teams/email/verify/:token");
    expect(withIds).not.toContain("/customers");
  });

  it("accepts only ids of letters, digits, dash and underscore, up to 64", () => {
    expect(paramsAreValid({ id: "cus_01J-abc" })).toBe(true);
    expect(paramsAreValid({ id: "x".repeat(64) })).toBe(true);
    expect(paramsAreValid({ id: "x".repeat(65) })).toBe(false);
    expect(paramsAreValid({ id: "bad.id" })).toBe(false);
    expect(paramsAreValid({ id: "" })).toBe(false);
  });

  it("finds the record a path shows, for presence", () => {
    expect(recordPath("/customers/cus_1")).toBe("/customers/cus_1");
    expect(recordPath("/payments/one-time/imports/imp_1")).toBe("/payments/one-time/imports/imp_1");
    expect(recordPath("/customers")).toBeUndefined();
    expect(recordPath("/customers/bad.id")).toBeUndefined();
  });

  it("finds the screen a path is on, and none for paths the app does not have", () => {
    expect(routeAt("/")?.screen).toBe("home");
    expect(routeAt("/account/teams")?.screen).toBe("teams");
    expect(routeAt("/account/teams/usr_1")?.screen).toBe("team");
    expect(routeAt("/account/teams/invite/tok_1")?.screen).toBe("teamInvite");
    expect(routeAt("/payments/recurring/imports/imp_1")?.screen).toBe("recurringImport");
    expect(routeAt("/nowhere")).toBeUndefined();
    expect(routeAt("/customers/bad.id")).toBeUndefined();
  });

  it("puts each route in the layout and access the product calls for", () => {
    const find = (path: string) => routes.find((entry) => entry.path === path);
    expect(find("/auth/login")).toMatchObject({ layout: "auth", access: "guest" });
    expect(find("/account/teams/invite/:token")).toMatchObject({ layout: "auth", access: "open" });
    expect(find("/download/summary")).toMatchObject({ layout: "none", access: "protected" });
    expect(find("/customers/:id")).toMatchObject({ layout: "default", access: "protected" });
  });

  it("finds the list above a record's screen", () => {
    expect(listPathFor("/customers/cus_1")).toBe("/customers");
    expect(listPathFor("/payments/recurring/imports/imp_1")).toBe("/payments/recurring");
    expect(listPathFor("/developers/webhooks/we_1")).toBe("/developers/webhooks");
    expect(listPathFor("/commerce/orders")).toBe("/commerce/orders");
    expect(listPathFor("/")).toBe("/");
  });
});
