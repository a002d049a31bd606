import { createStore } from "jotai";
import { describe, expect, it } from "vitest";
import { identityAtom } from "./atoms";
import {
  applyChanges,
  businessInfoAtom,
  customerAtom,
  customerUpsertsAtom,
  dropCache,
  entityVersionAtom,
  forgetUser,
  listVersionAtom,
  profileAtom,
  putBusinessInfo,
  putProfile,
  twoFactorRequiredAtom,
} from "./cache";
import { sampleBusinessInfo, sampleCustomer, sampleProfile } from "./testing";

describe("entity cache", () => {
  it("stores an upserted customer under its id and reports it", () => {
    const store = createStore();
    const customer = sampleCustomer({ id: "cus_a" });
    applyChanges(store, [{ t: "CustomerUpserted", customer }]);
    expect(store.get(customerAtom("cus_a"))).toEqual(customer);
    expect(store.get(customerUpsertsAtom).ids).toEqual(["cus_a"]);
  });

  it("keeps one atom per id", () => {
    expect(customerAtom("cus_same")).toBe(customerAtom("cus_same"));
  });

  it("bumps the list version on Invalidate", () => {
    const store = createStore();
    const before = store.get(listVersionAtom).customer;
    applyChanges(store, [{ t: "Invalidate", kind: "customer" }]);
    expect(store.get(listVersionAtom).customer).toBe(before + 1);
    applyChanges(store, [{ t: "Invalidate", kind: "business_info" }]);
    expect(store.get(listVersionAtom).business_info).toBe(1);
  });

  it("forgets records and asks lists and details to refetch when dropped", () => {
    const store = createStore();
    applyChanges(store, [{ t: "CustomerUpserted", customer: sampleCustomer({ id: "cus_b" }) }]);
    dropCache(store);
    expect(store.get(customerAtom("cus_b"))).toBeUndefined();
    expect(store.get(listVersionAtom).customer).toBe(1);
    expect(store.get(entityVersionAtom)).toBe(1);
  });
});

describe("business info and the two-factor rule", () => {
  it("replaces the business info with the one a teammate saved", () => {
    const store = createStore();
    putBusinessInfo(store, sampleBusinessInfo(), false);
    const edited = sampleBusinessInfo({ tradingName: "Karoo Fitness", statementName: "KAROOFIT" });
    applyChanges(store, [{ t: "BusinessInfoUpdated", info: edited }]);
    expect(store.get(businessInfoAtom)).toEqual(edited);
  });

  it("takes business info from a delta even before the screen asked for it", () => {
    const store = createStore();
    applyChanges(store, [{ t: "BusinessInfoUpdated", info: sampleBusinessInfo({ legalName: "New (Pty) Ltd" }) }]);
    expect(store.get(businessInfoAtom)?.legalName).toBe("New (Pty) Ltd");
  });

  it("follows the two-factor rule in the policy atom and in the profile", () => {
    const store = createStore();
    putProfile(store, sampleProfile({ twoFactorRequired: false }));
    putBusinessInfo(store, sampleBusinessInfo(), false);
    applyChanges(store, [{ t: "TwoFactorPolicyUpdated", required: true }]);
    expect(store.get(twoFactorRequiredAtom)).toBe(true);
    expect(store.get(profileAtom)?.twoFactorRequired).toBe(true);
    applyChanges(store, [{ t: "TwoFactorPolicyUpdated", required: false }]);
    expect(store.get(twoFactorRequiredAtom)).toBe(false);
    expect(store.get(profileAtom)?.twoFactorRequired).toBe(false);
  });

  it("does not make up a profile from a policy change", () => {
    const store = createStore();
    applyChanges(store, [{ t: "TwoFactorPolicyUpdated", required: true }]);
    expect(store.get(profileAtom)).toBeUndefined();
    expect(store.get(twoFactorRequiredAtom)).toBe(true);
  });

  it("forgets the merchant's details on a drop but keeps the user's profile", () => {
    const store = createStore();
    putProfile(store, sampleProfile());
    putBusinessInfo(store, sampleBusinessInfo(), true);
    const before = store.get(listVersionAtom).business_info;
    dropCache(store);
    expect(store.get(businessInfoAtom)).toBeUndefined();
    expect(store.get(twoFactorRequiredAtom)).toBeUndefined();
    expect(store.get(listVersionAtom).business_info).toBe(before + 1);
    expect(store.get(profileAtom)).toBeDefined();
    forgetUser(store);
    expect(store.get(profileAtom)).toBeUndefined();
  });
});

describe("profile", () => {
  it("renames the signed-in user in the header when the profile says so", () => {
    const store = createStore();
    const merchant = { id: "mer_1", name: "Karoo Gym", role: "owner" as const };
    store.set(identityAtom, { user: { id: "usr_1", name: "Old", email: "t@example.co.za" }, merchant, mode: "live", merchants: [merchant] });
    putProfile(store, sampleProfile({ user: { id: "usr_1", name: "Thandi N.", email: "t@example.co.za" } }));
    expect(store.get(identityAtom)?.user.name).toBe("Thandi N.");
  });
});
