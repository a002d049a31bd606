import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { noticeAtom, placeAtom, placeVisitAtom } from "./atoms";
import { customerAtom } from "./cache";
import { LiveError } from "./client";
import { connected, merchantView, welcome } from "./clientTesting";
import { sampleCustomer } from "./testing";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const karoo = merchantView("mer_karoo", "Karoo Traders");
const own = merchantView("mer_own", "Fiona's Flowers");

function helloOf(frame: unknown) {
  return frame as { t: string; merchantId?: string; mode?: string };
}

describe("LiveClient and the tab's place", () => {
  it("asks for the place it is sent to, and takes the one the Welcome names", () => {
    const { client, store, last } = connected();
    expect(store.get(placeAtom)).toEqual({ merchantId: "mer_1", mode: "test" });
    client.switchTo({ merchantId: "mer_karoo", mode: "live" });
    expect(store.get(placeAtom)).toEqual({ merchantId: "mer_karoo", mode: "live" });
    expect(helloOf(last().sent.at(-1))).toMatchObject({ t: "Hello", merchantId: "mer_karoo", mode: "live" });
    last().receive(welcome("ep_2", 0, "b1", karoo, "live"));
    expect(store.get(placeAtom)).toEqual({ merchantId: "mer_karoo", mode: "live" });
  });

  it("counts a visit only when the place changes", () => {
    const { client, store } = connected();
    const before = store.get(placeVisitAtom);
    client.switchTo({ merchantId: "mer_1", mode: "test" });
    expect(store.get(placeVisitAtom)).toBe(before);
    client.switchTo({ merchantId: "mer_1", mode: "live" });
    expect(store.get(placeVisitAtom)).toBe(before + 1);
  });

  it("does not carry what was asked of one business into the next", async () => {
    const { client, store, last } = connected();
    const command = client.command({ t: "ArchiveCustomer", customerId: "cus_1" });
    const query = client.query({ t: "GetCustomer", customerId: "cus_2" });
    const sentQuery = last().sent.at(-1) as { id: string };
    client.switchTo({ merchantId: "mer_karoo", mode: "test" });

    // The unanswered command may have run in the old business, and the query names its records.
    await expect(command).rejects.toBeInstanceOf(LiveError);
    await expect(query).rejects.toBeInstanceOf(LiveError);
    expect(store.get(noticeAtom)).toBeNull();
    // The old stream's late answer lands nowhere.
    last().receive({ t: "Reply", id: sentQuery.id, ok: { t: "Customer", customer: sampleCustomer({ id: "cus_2", name: "Of the old one" }) } });
    expect(store.get(customerAtom("cus_2"))).toBeUndefined();

    // Neither goes to the new business once it welcomes the tab.
    const sentBefore = last().sent.length;
    last().receive(welcome("ep_2", 0, "b1", karoo, "test"));
    expect(last().sent.slice(sentBefore).filter((frame) => frame.t === "Command" || frame.t === "Query")).toEqual([]);
  });

  it("removed from the business it shows (4003), says so by name and opens another in the same mode", () => {
    const { client, store, sockets, last } = connected();
    client.switchTo({ merchantId: "mer_karoo", mode: "test" });
    last().receive(welcome("ep_2", 0, "b1", karoo, "test"));
    const visit = store.get(placeVisitAtom);
    last().serverClose(4003);

    expect(store.get(noticeAtom)).toMatchObject({ source: "connection", moved: { why: "removed", from: "Karoo Traders" } });
    expect(store.get(placeAtom)).toEqual({ merchantId: undefined, mode: "test" });
    expect(store.get(placeVisitAtom)).toBe(visit + 1);
    expect(sockets).toHaveLength(2);
    last().open();
    expect(helloOf(last().sent[0])).toEqual({ t: "Hello", build: "b1", mode: "test" });
    last().receive(welcome("ep_3", 0, "b1", own, "test"));
    expect(store.get(placeAtom)).toEqual({ merchantId: "mer_own", mode: "test" });
    // The notice stays: it is not a command's failure.
    client.command({ t: "ArchiveCustomer", customerId: "cus_1" }).catch(() => undefined);
    expect(store.get(noticeAtom)).toMatchObject({ moved: { why: "removed" } });
  });

  it("refused a business whose team the user is not on (4006), says so without naming it and opens one of theirs", () => {
    const { client, store, sockets, last } = connected();
    client.switchTo({ merchantId: "mer_rival", mode: "live" });
    last().serverClose(4006);
    expect(store.get(noticeAtom)).toMatchObject({ moved: { why: "notOnTeam" } });
    expect(sockets).toHaveLength(2);
    last().open();
    expect(helloOf(last().sent[0])).toEqual({ t: "Hello", build: "b1", mode: "live" });
  });
});
