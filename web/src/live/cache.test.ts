import { createStore } from "jotai";
import { describe, expect, it } from "vitest";
import { applyChanges, customerAtom, customerUpsertsAtom, dropCache, entityVersionAtom, listVersionAtom } from "./cache";
import { sampleCustomer } from "./testing";

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
