import { describe, expect, it } from "vitest";
import type { HistoryEntry } from "../../protocol/wire";
import { historyFilter, matchesFilter, readHistoryView, writeHistoryView } from "./historyView";

const entry: HistoryEntry = {
  id: "hst_1",
  at: new Date(2026, 2, 2, 10, 0).getTime(),
  actorKind: "user",
  actorId: "usr_1",
  actorName: "Thandi Nkosi",
  address: "127.0.0.1",
  userAgent: "@agent",
  recordKind: "customer",
  recordId: "cus_1",
  action: "updated",
  fields: ["name"],
  section: "customers",
};

describe("history view", () => {
  it("keeps only known filters in the address and reads them back", () => {
    const view = readHistoryView(new URLSearchParams("person=usr_1&record=customer&action=updated&from=2026-03-01&to=bad&x=1"));
    expect(view).toEqual({ person: "usr_1", record: "customer", action: "updated", from: "2026-03-01", to: "" });
    expect(writeHistoryView(view).toString()).toBe("person=usr_1&record=customer&action=updated&from=2026-03-01");
    expect(readHistoryView(new URLSearchParams("record=nonsense&action=deleted_all"))).toMatchObject({ record: "", action: "" });
  });

  it("matches live entries as the server filters: person, record, action and whole days", () => {
    const day = historyFilter({ person: "usr_1", record: "customer", action: "updated", from: "2026-03-02", to: "2026-03-02" });
    expect(matchesFilter(entry, day)).toBe(true);
    expect(matchesFilter({ ...entry, actorId: "usr_2" }, day)).toBe(false);
    expect(matchesFilter({ ...entry, action: "created" }, day)).toBe(false);
    expect(matchesFilter(entry, historyFilter({ person: "", record: "", action: "", from: "2026-03-03", to: "" }))).toBe(false);
  });
});
