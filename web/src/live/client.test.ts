import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { accessChangeAtom, connectionAtom, identityAtom, noticeAtom, presenceAtom } from "./atoms";
import { businessInfoAtom, customerAtom, entityVersionAtom, importAtom, profileAtom, twoFactorRequiredAtom } from "./cache";
import { LiveError } from "./client";
import { connected, noticeError, setup, welcome } from "./clientTesting";
import { everySection } from "./permissions";
import { sampleBusinessInfo, sampleCustomer, sampleImport, sampleProfile } from "./testing";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("LiveClient", () => {
  it("says Hello with its build and goes online on Welcome", () => {
    const { client, store, last } = setup();
    client.start();
    expect(store.get(connectionAtom)).toBe("connecting");
    last().open();
    expect(last().sent[0]).toEqual({ t: "Hello", build: "b1" });
    last().receive(welcome("ep_1", 3));
    expect(store.get(connectionAtom)).toBe("online");
    expect(store.get(identityAtom)?.merchant.name).toBe("Karoo Gym");
    expect(client.resumePosition).toEqual({ epoch: "ep_1", seq: 3 });
  });

  it("holds queries until welcomed and fills the cache from the reply", async () => {
    const { client, last } = setup();
    client.start();
    last().open();
    const reply = client.query({ t: "ListCustomers", status: "active" });
    expect(last().sent.map((frame) => frame.t)).toEqual(["Hello"]);
    last().receive(welcome("ep_1", 0));
    const query = last().sent.find((frame) => frame.t === "Query");
    expect(query).toBeDefined();
    const customer = sampleCustomer({ id: "cus_q" });
    last().receive({ t: "Reply", id: (query as { id: string }).id, ok: { t: "CustomerPage", items: [customer] } });
    await expect(reply).resolves.toEqual({ t: "CustomerPage", items: [customer] });
    expect(client.store.get(customerAtom("cus_q"))).toEqual(customer);
  });

  it("fills the import cache from a list of imports and one import's reply", async () => {
    const { client, last } = connected();
    const listed = client.query({ t: "ListImports", kind: "once" });
    const listQuery = last().sent.at(-1) as { id: string };
    last().receive({ t: "Reply", id: listQuery.id, ok: { t: "ImportPage", items: [sampleImport({ id: "imp_l" })] } });
    await listed;
    expect(client.store.get(importAtom("imp_l"))?.fileName).toBe("june.csv");
    const one = client.query({ t: "GetImport", importId: "imp_g" });
    const getQuery = last().sent.at(-1) as { id: string };
    last().receive({ t: "Reply", id: getQuery.id, ok: { t: "Import", import: sampleImport({ id: "imp_g", committed: 10, status: "completed" }) } });
    await one;
    expect(client.store.get(importAtom("imp_g"))?.status).toBe("completed");
  });

  it("rejects a command with the server's error", async () => {
    const { client, last } = connected();
    const result = client.command({ t: "ArchiveCustomer", customerId: "cus_x" });
    const command = last().sent.find((frame) => frame.t === "Command") as { id: string };
    last().receive({ t: "Reply", id: command.id, error: { code: "already_archived" } });
    await expect(result).rejects.toBeInstanceOf(LiveError);
    await expect(result).rejects.toMatchObject({ wire: { code: "already_archived" } });
    expect(noticeError(client.store.get(noticeAtom))?.code).toBe("already_archived");
  });

  it("leaves a failed query to the screen that asked", async () => {
    const { client, last } = connected();
    const result = client.query({ t: "GetCustomer", customerId: "cus_gone" });
    const query = last().sent.find((frame) => frame.t === "Query") as { id: string };
    last().receive({ t: "Reply", id: query.id, error: { code: "not_found" } });
    await expect(result).rejects.toMatchObject({ wire: { code: "not_found" } });
    expect(client.store.get(noticeAtom)).toBeNull();
  });

  it("refuses a command too large for one frame without sending it", async () => {
    const { client, last } = connected();
    const sent = last().sent.length;
    const input = { name: "x".repeat(70_000), email: "", cellphone: "", idNumber: "", addressLine1: "", addressLine2: "", city: "", postalCode: "", reference: "" };
    await expect(client.command({ t: "CreateCustomer", input })).rejects.toMatchObject({ wire: { code: "bad_frame" } });
    expect(last().sent).toHaveLength(sent);
  });

  it("applies the next delta and moves its position", () => {
    const { client, store, last } = connected("ep_1", 4);
    const customer = sampleCustomer({ id: "cus_d" });
    last().receive({ t: "Delta", seq: 5, changes: [{ t: "CustomerUpserted", customer }] });
    expect(store.get(customerAtom("cus_d"))).toEqual(customer);
    expect(client.resumePosition).toEqual({ epoch: "ep_1", seq: 5 });
  });

  it("ignores a delta it already has", () => {
    const { client, store, last } = connected("ep_1", 4);
    last().receive({ t: "Delta", seq: 4, changes: [{ t: "CustomerUpserted", customer: sampleCustomer({ id: "cus_old" }) }] });
    expect(store.get(customerAtom("cus_old"))).toBeUndefined();
    expect(client.resumePosition?.seq).toBe(4);
  });

  it("reconnects with resume on a gap without applying the delta", () => {
    const { sockets, store, last } = connected("ep_1", 4);
    const first = last();
    last().receive({ t: "Delta", seq: 7, changes: [{ t: "CustomerUpserted", customer: sampleCustomer({ id: "cus_gap" }) }] });
    expect(store.get(customerAtom("cus_gap"))).toBeUndefined();
    expect(first.closedWith).toBe(4000);
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent[0]).toEqual({ t: "Hello", build: "b1", resume: { epoch: "ep_1", seq: 4 }, merchantId: "mer_1", mode: "test" });
  });

  it("reconnects with backoff after a close and re-sends unanswered commands with the same id", () => {
    const { client, sockets, last, store } = connected("ep_1", 2);
    void client.command({ t: "RestoreCustomer", customerId: "cus_r" }).catch(() => undefined);
    const original = last().sent.find((frame) => frame.t === "Command") as { id: string };
    last().serverClose(1006);
    expect(store.get(connectionAtom)).toBe("reconnecting");
    vi.advanceTimersByTime(499);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent[0]).toMatchObject({ t: "Hello", resume: { epoch: "ep_1", seq: 2 } });
    last().receive(welcome("ep_1", 2));
    const again = last().sent.find((frame) => frame.t === "Command") as { id: string };
    expect(again.id).toBe(original.id);
  });

  it("doubles the backoff while the server stays away, asking the app to check the session", () => {
    const onRetry = vi.fn();
    const { client, sockets, last } = setup({ onRetry });
    client.start();
    last().open();
    last().receive(welcome("ep_1", 0));
    last().serverClose(1006);
    vi.advanceTimersByTime(500);
    last().serverClose(1006);
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    expect(onRetry).toHaveBeenCalledWith(2);
  });

  it("drops the cache and moves on from a Resync", () => {
    const { client, store, last } = connected("ep_1", 1);
    last().receive({ t: "Delta", seq: 2, changes: [{ t: "CustomerUpserted", customer: sampleCustomer({ id: "cus_rs" }) }] });
    const version = store.get(entityVersionAtom);
    last().receive({ t: "Resync", epoch: "ep_2", seq: 40 });
    expect(store.get(customerAtom("cus_rs"))).toBeUndefined();
    expect(store.get(entityVersionAtom)).toBe(version + 1);
    expect(client.resumePosition).toEqual({ epoch: "ep_2", seq: 40 });
    last().receive({ t: "Delta", seq: 41, changes: [] });
    expect(client.resumePosition?.seq).toBe(41);
  });

  it("refetches when a resumed Welcome is not where it left off", () => {
    const { store, last } = connected("ep_1", 1);
    const version = store.get(entityVersionAtom);
    last().serverClose(1006);
    vi.advanceTimersByTime(500);
    last().open();
    last().receive(welcome("ep_9", 12));
    expect(store.get(entityVersionAtom)).toBe(version + 1);
  });

  it("stops and reports a sign-out on close code 4001", () => {
    const onSignedOut = vi.fn();
    const { client, sockets, last, store } = setup({ onSignedOut });
    client.start();
    last().open();
    last().receive(welcome("ep_1", 0));
    last().serverClose(4001);
    vi.advanceTimersByTime(60_000);
    expect(onSignedOut).toHaveBeenCalledOnce();
    expect(sockets).toHaveLength(1);
    expect(store.get(connectionAtom)).toBe("idle");
  });

  it("on close code 4002 (too many tabs) says why and waits for the user instead of retrying", () => {
    const network = new EventTarget();
    const { client, sockets, last, store } = setup({ network });
    client.start();
    last().open();
    last().receive(welcome("ep_1", 0));
    last().serverClose(4002);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(store.get(connectionAtom)).toBe("refused");
    expect(noticeError(store.get(noticeAtom))).toEqual({ code: "too_many_sockets" });
    // Back on this tab, having closed others: one more try.
    network.dispatchEvent(new Event("focus"));
    expect(sockets).toHaveLength(2);
    expect(store.get(connectionAtom)).toBe("connecting");
    network.dispatchEvent(new Event("focus"));
    expect(sockets).toHaveLength(2);
  });

  it("on close code 4005 (on no team any more) stops for good and tells the app", () => {
    const { client, sockets, last, store } = setup();
    client.start();
    last().open();
    last().receive(welcome("ep_1", 0));
    last().serverClose(4003);
    expect(sockets).toHaveLength(2);
    last().open();
    last().serverClose(4005);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(2);
    expect(store.get(connectionAtom)).toBe("noTeam");
    expect(store.get(noticeAtom)).toBeNull();
  });

  it("tells the app when the server runs another build", () => {
    const onBuildMismatch = vi.fn();
    const { client, last } = setup({ onBuildMismatch });
    client.start();
    last().open();
    last().receive(welcome("ep_1", 0, "b2"));
    expect(onBuildMismatch).toHaveBeenCalledWith("b2");
  });

  it("pings every 20 s and reconnects when no Pong came back", () => {
    const { sockets, last } = connected();
    vi.advanceTimersByTime(20_000);
    expect(last().sent.at(-1)).toEqual({ t: "Ping" });
    last().receive({ t: "Pong" });
    vi.advanceTimersByTime(20_000);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(20_000 + 500);
    expect(sockets).toHaveLength(2);
  });

  it("drops the socket when the network goes away and resumes as soon as it is back", () => {
    const network = new EventTarget();
    const { client, sockets, last, store } = setup({ network });
    client.start();
    last().open();
    last().receive(welcome("ep_1", 6));
    const first = last();
    network.dispatchEvent(new Event("offline"));
    expect(first.closedWith).toBe(4000);
    expect(store.get(connectionAtom)).toBe("reconnecting");
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    network.dispatchEvent(new Event("online"));
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent[0]).toMatchObject({ t: "Hello", resume: { epoch: "ep_1", seq: 6 } });
  });

  it("keeps presence members and announces what the tab shows", () => {
    const { client, store, last } = connected();
    client.setViewing("/customers/cus_1");
    expect(last().sent.at(-1)).toEqual({ t: "Presence", viewing: "/customers/cus_1" });
    client.setEditing("/customers/cus_1");
    expect(last().sent.at(-1)).toEqual({ t: "Presence", viewing: "/customers/cus_1", editing: "/customers/cus_1" });
    last().receive({ t: "Presence", members: [{ userId: "u2", name: "Sipho" }] });
    expect(store.get(presenceAtom)).toHaveLength(1);
  });

  it("applies presence changes on top of the snapshot", () => {
    const { store, last } = connected();
    last().receive({ t: "Presence", members: [{ userId: "u2", name: "Sipho" }, { userId: "u3", name: "Lerato" }] });
    last().receive({
      t: "PresenceChanged",
      joined: [{ userId: "u4", name: "Pieter" }],
      moved: [{ userId: "u2", name: "Sipho", viewing: ["/payments"] }],
      left: ["u3"],
    });
    expect(store.get(presenceAtom)).toEqual([
      { userId: "u2", name: "Sipho", viewing: ["/payments"] },
      { userId: "u4", name: "Pieter" },
    ]);
  });

  it("applies business info and two-factor policy deltas", () => {
    const { store, last } = connected("ep_1", 1);
    const info = sampleBusinessInfo({ tradingName: "Karoo Fitness" });
    last().receive({ t: "Delta", seq: 2, changes: [{ t: "BusinessInfoUpdated", info }, { t: "TwoFactorPolicyUpdated", required: true }] });
    expect(store.get(businessInfoAtom)).toEqual(info);
    expect(store.get(twoFactorRequiredAtom)).toBe(true);
  });

  it("fills the profile and business info from their replies", async () => {
    const { client, store, last } = connected();
    const profileReply = client.query({ t: "GetProfile" });
    const infoReply = client.query({ t: "GetBusinessInfo" });
    const [first, second] = last().sent.filter((frame) => frame.t === "Query") as { id: string }[];
    const profile = sampleProfile({ emailVerified: false });
    last().receive({ t: "Reply", id: first.id, ok: { t: "Profile", profile } });
    last().receive({ t: "Reply", id: second.id, ok: { t: "BusinessInfo", info: sampleBusinessInfo(), twoFactorRequired: true } });
    await profileReply;
    await infoReply;
    // The business info reply is newer: its two-factor rule wins in the profile too.
    expect(store.get(profileAtom)).toEqual({ ...profile, twoFactorRequired: true });
    expect(store.get(businessInfoAtom)?.legalName).toBe("Karoo Gym (Pty) Ltd");
    expect(store.get(twoFactorRequiredAtom)).toBe(true);
  });

  it("hands secrets and backup codes to the caller only", async () => {
    const { client, last } = connected();
    const reply = client.command({ t: "ConfirmTwoFactor", code: "123456" });
    const command = last().sent.find((frame) => frame.t === "Command") as { id: string };
    last().receive({ t: "Reply", id: command.id, ok: { t: "BackupCodes", codes: ["aaaa-bbbb"] } });
    await expect(reply).resolves.toEqual({ t: "BackupCodes", codes: ["aaaa-bbbb"] });
  });

  it("leaves a command's error to a form that shows it itself", async () => {
    const { client, last } = connected();
    const result = client.command({ t: "ChangePassword", currentPassword: "x", newPassword: "y" }, { announce: false });
    const command = last().sent.find((frame) => frame.t === "Command") as { id: string };
    last().receive({ t: "Reply", id: command.id, error: { code: "wrong_password" } });
    await expect(result).rejects.toMatchObject({ wire: { code: "wrong_password" } });
    expect(client.store.get(noticeAtom)).toBeNull();
  });

  it("takes a new role from an Access frame and says so once, only for the merchant open", () => {
    const { store, client, last } = setup();
    client.start();
    last().open();
    last().receive(welcome("e1", 0));
    expect(store.get(accessChangeAtom)).toBeNull();
    const viewer = { id: "mer_1", name: "Karoo Gym", role: "viewer" as const, permissions: { ...everySection("read"), developers: "none" as const } };
    last().receive({ t: "Access", merchant: viewer });
    expect(store.get(identityAtom)?.merchant.role).toBe("viewer");
    expect(store.get(accessChangeAtom)).toEqual({ t: "role", merchant: viewer, serial: 1 });
    // The same standing again is no news; another merchant's is not this tab's.
    last().receive({ t: "Access", merchant: viewer });
    last().receive({ t: "Access", merchant: { ...viewer, id: "mer_2", role: "admin" } });
    expect(store.get(accessChangeAtom)?.serial).toBe(1);
    client.stop();
    expect(store.get(accessChangeAtom)).toBeNull();
  });

  it("forgets the profile when stopped", async () => {
    const { client, store, last } = connected();
    const reply = client.query({ t: "GetProfile" });
    const query = last().sent.find((frame) => frame.t === "Query") as { id: string };
    last().receive({ t: "Reply", id: query.id, ok: { t: "Profile", profile: sampleProfile() } });
    await reply;
    client.stop();
    expect(store.get(profileAtom)).toBeUndefined();
  });
});

describe("a frame the server could not read", () => {
  it("fails the requests that socket carried instead of sending them again and again", async () => {
    const { client, sockets, last, store } = connected("ep_1", 2);
    const payout = client.command({ t: "RequestPayout", amountCents: 9_999_999_900 });
    const list = client.query({ t: "ListCustomers", status: "active" });
    last().serverClose(1007);
    await expect(payout).rejects.toMatchObject({ wire: { code: "bad_frame" } });
    await expect(list).rejects.toMatchObject({ wire: { code: "bad_frame" } });
    // A command's failure is announced; the query's is left to the screen that asked.
    expect(noticeError(store.get(noticeAtom))).toEqual({ code: "bad_frame" });

    // Asked while the socket was down, so the server never saw it: it goes on the next socket.
    const later = client.command({ t: "RestoreCustomer", customerId: "cus_later" });
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(2);
    last().open();
    last().receive(welcome("ep_1", 2));
    const resent = last().sent.filter((frame) => frame.t === "Command" || frame.t === "Query");
    expect(resent).toEqual([{ t: "Command", id: expect.any(String), command: { t: "RestoreCustomer", customerId: "cus_later" } }]);
    last().receive({ t: "Reply", id: (resent[0] as { id: string }).id, ok: { t: "Committed", seq: 3 } });
    await expect(later).resolves.toMatchObject({ t: "Committed" });
  });

  it("still re-sends unanswered requests after any other close", () => {
    const { client, last } = connected("ep_1", 2);
    void client.command({ t: "RestoreCustomer", customerId: "cus_r" }).catch(() => undefined);
    last().serverClose(1011);
    vi.advanceTimersByTime(500);
    last().open();
    last().receive(welcome("ep_1", 2));
    expect(last().sent.some((frame) => frame.t === "Command")).toBe(true);
  });
});

describe("a command's failure notice", () => {
  function failedCommand() {
    const context = connected();
    void context.client.command({ t: "ArchiveCustomer", customerId: "cus_x" }).catch(() => undefined);
    const command = context.last().sent.at(-1) as { id: string };
    context.last().receive({ t: "Reply", id: command.id, error: { code: "invalid_input" } });
    expect(noticeError(context.store.get(noticeAtom))?.code).toBe("invalid_input");
    return context;
  }

  it("goes when the form sends its command again", () => {
    const { client, store } = failedCommand();
    void client.command({ t: "ArchiveCustomer", customerId: "cus_x" }).catch(() => undefined);
    expect(store.get(noticeAtom)).toBeNull();
  });

  it("goes when a command succeeds, announced by the form itself or not", async () => {
    const { client, store, last } = connected();
    client.announceError({ code: "invalid_input" });
    // Queries and presence are not the user acting on the failure.
    void client.query({ t: "ListCustomers", status: "active" }).catch(() => undefined);
    client.setViewing("/customers");
    expect(noticeError(store.get(noticeAtom))?.code).toBe("invalid_input");
    const saved = client.command({ t: "RestoreCustomer", customerId: "cus_r" }, { announce: false });
    client.announceError({ code: "invalid_input" });
    const command = last().sent.filter((frame) => frame.t === "Command").at(-1) as { id: string };
    last().receive({ t: "Reply", id: command.id, ok: { t: "Committed", seq: 1 } });
    await saved;
    expect(store.get(noticeAtom)).toBeNull();
  });

  it("leaves a notice about the connection alone", () => {
    const { client, store, last } = connected();
    last().serverClose(4002);
    void client.command({ t: "RestoreCustomer", customerId: "cus_r" }).catch(() => undefined);
    expect(noticeError(store.get(noticeAtom))?.code).toBe("too_many_sockets");
  });
});
