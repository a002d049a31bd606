import { atom } from "jotai";
import type { BankAccount, BusinessInfo, Change, Customer, EntityKind, Profile } from "../protocol/wire";
import { identityAtom } from "./atoms";
import { atomFamily } from "./family";
import type { Store } from "./store";

// Normalised entity cache: one atom per record; lists keep ids and read records from here.
export const customerAtom = atomFamily<Customer | undefined>(undefined);

// A customer's bank accounts, oldest first, by customer id; undefined until the list is fetched.
export const bankAccountsAtom = atomFamily<BankAccount[] | undefined>(undefined);
// Counts the bank account changes per customer, fetched list or not: a list answer that
// crossed one of them on the way may miss it, and is asked for again.
export const bankAccountChangesAtom = atomFamily<number>(0);

// The signed-in user's own account; per user, so a merchant switch keeps it.
export const profileAtom = atom<Profile | undefined>(undefined);

// The open merchant's business details and its two-factor rule; deltas keep both current.
export const businessInfoAtom = atom<BusinessInfo | undefined>(undefined);
export const twoFactorRequiredAtom = atom<boolean | undefined>(undefined);

// Bumped when lists of a kind must be fetched again (Invalidate, Resync, merchant switch).
export const listVersionAtom = atom<Record<EntityKind, number>>({ customer: 0, business_info: 0, bank_account: 0 });

// Bumped when every shown record must be fetched again (Resync, merchant switch).
export const entityVersionAtom = atom(0);

// The ids of the last upserted records per kind, so lists can notice new ones.
export type UpsertFeed = { serial: number; ids: string[] };
export const customerUpsertsAtom = atom<UpsertFeed>({ serial: 0, ids: [] });

export function putCustomers(store: Store, customers: Customer[]): void {
  for (const customer of customers) store.set(customerAtom(customer.id), customer);
}

/** Stores a customer's bank accounts as the server listed them. */
export function putBankAccounts(store: Store, customerId: string, accounts: BankAccount[]): void {
  store.set(bankAccountsAtom(customerId), byAge(accounts));
}

function byAge(accounts: BankAccount[]): BankAccount[] {
  return [...accounts].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

// A list not fetched yet stays unfetched: the screen that opens it asks the server.
function addBankAccount(store: Store, account: BankAccount): void {
  store.set(bankAccountChangesAtom(account.customerId), (count) => count + 1);
  store.set(bankAccountsAtom(account.customerId), (accounts) =>
    accounts && byAge([...accounts.filter((known) => known.id !== account.id), account]),
  );
}

function removeBankAccount(store: Store, customerId: string, id: string): void {
  store.set(bankAccountChangesAtom(customerId), (count) => count + 1);
  store.set(bankAccountsAtom(customerId), (accounts) =>
    accounts?.some((known) => known.id === id) ? accounts.filter((known) => known.id !== id) : accounts,
  );
}

/** Stores the profile, and the name and address the header shows with it. */
export function putProfile(store: Store, profile: Profile): void {
  store.set(profileAtom, profile);
  store.set(identityAtom, (identity) =>
    identity && identity.user.id === profile.user.id ? { ...identity, user: profile.user } : identity,
  );
}

export function putBusinessInfo(store: Store, info: BusinessInfo, twoFactorRequired: boolean): void {
  store.set(businessInfoAtom, info);
  putTwoFactorRequired(store, twoFactorRequired);
}

function putTwoFactorRequired(store: Store, required: boolean): void {
  store.set(twoFactorRequiredAtom, required);
  // The profile carries the rule of the open merchant too: the gate reads it from there.
  store.set(profileAtom, (profile) => (profile && profile.twoFactorRequired !== required ? { ...profile, twoFactorRequired: required } : profile));
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
      case "BusinessInfoUpdated":
        store.set(businessInfoAtom, change.info);
        break;
      case "TwoFactorPolicyUpdated":
        putTwoFactorRequired(store, change.required);
        break;
      case "BankAccountAdded":
        addBankAccount(store, change.account);
        break;
      case "BankAccountRemoved":
        removeBankAccount(store, change.customerId, change.id);
        break;
    }
  }
  if (upserted.length > 0) {
    store.set(customerUpsertsAtom, (feed) => ({ serial: feed.serial + 1, ids: upserted }));
  }
}

// Forget every merchant record and list, so whatever is on screen fetches afresh.
// The profile stays: it belongs to the user, and screens refetch it on the version bump.
export function dropCache(store: Store): void {
  for (const id of customerAtom.keys()) store.set(customerAtom(id), undefined);
  for (const id of bankAccountsAtom.keys()) store.set(bankAccountsAtom(id), undefined);
  store.set(businessInfoAtom, undefined);
  store.set(twoFactorRequiredAtom, undefined);
  bumpList(store, "customer");
  bumpList(store, "business_info");
  bumpList(store, "bank_account");
  store.set(entityVersionAtom, (version) => version + 1);
}

/** After sign-out: nothing of this user may stay for the next one. */
export function forgetUser(store: Store): void {
  dropCache(store);
  store.set(profileAtom, undefined);
}
