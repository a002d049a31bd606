import { atom } from "jotai";
import type { Change, Customer, EntityKind } from "../protocol/wire";
import { atomFamily } from "./family";
import type { Store } from "./store";

// Normalised entity cache: one atom per record; lists keep ids and read records from here.
export const customerAtom = atomFamily<Customer | undefined>(undefined);

// Bumped when lists of a kind must be fetched again (Invalidate, Resync, merchant switch).
export const listVersionAtom = atom<Record<EntityKind, number>>({ customer: 0 });

// Bumped when every shown record must be fetched again (Resync, merchant switch).
export const entityVersionAtom = atom(0);

// The ids of the last upserted records per kind, so lists can notice new ones.
export type UpsertFeed = { serial: number; ids: string[] };
export const customerUpsertsAtom = atom<UpsertFeed>({ serial: 0, ids: [] });

export function putCustomers(store: Store, customers: Customer[]): void {
  for (const customer of customers) store.set(customerAtom(customer.id), customer);
}

function bumpList(store: Store, kind: EntityKind): void {
  store.set(listVersionAtom, (versions) => ({ ...versions, [kind]: versions[kind] + 1 }));
}

export function applyChanges(store: Store, changes: Change[]): void {
  const upserted: string[] = [];
  for (const change of changes) {
    switch (change.t) {
      case "CustomerUpserted":
        store.set(customerAtom(change.customer.id), change.customer);
        upserted.push(change.customer.id);
        break;
      case "Invalidate":
        bumpList(store, change.kind);
        break;
    }
  }
  if (upserted.length > 0) {
    store.set(customerUpsertsAtom, (feed) => ({ serial: feed.serial + 1, ids: upserted }));
  }
}

// Forget every record and list, so whatever is on screen fetches afresh.
export function dropCache(store: Store): void {
  for (const id of customerAtom.keys()) store.set(customerAtom(id), undefined);
  bumpList(store, "customer");
  store.set(entityVersionAtom, (version) => version + 1);
}
