import { createStore } from "jotai";
import { describe, expect, it } from "vitest";
import { identityAtom } from "./atoms";
import {
  accountMoved,
  applyChanges,
  bankAccountChangesAtom,
  bankAccountsAtom,
  businessInfoAtom,
  cardAtom,
  cardUpsertsAtom,
  customerAtom,
  customerUpsertsAtom,
  dropCache,
  eMandateRequestAtom,
  eMandateRequestUpsertsAtom,
  entityVersionAtom,
  forgetUser,
  topicVersionsAtom,
  orderAtom,
  orderUpsertsAtom,
  payPageAtom,
  payPageUpsertsAtom,
  profileAtom,
  putBankAccounts,
  putBusinessInfo,
  putCards,
  putOrders,
  putPayPages,
  putProfile,
  twoFactorRequiredAtom,
} from "./cache";
import type { EMandateRequest } from "../protocol/wire";
import { everySection } from "./permissions";
import { sampleBankAccount, sampleBusinessInfo, sampleCard, sampleCustomer, sampleOrder, samplePayPage, sampleProfile } from "./testing";

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
    const before = store.get(topicVersionsAtom).customer;
    applyChanges(store, [{ t: "Invalidate", kind: "customer" }]);
    expect(store.get(topicVersionsAtom).customer).toBe(before + 1);
    applyChanges(store, [{ t: "Invalidate", kind: "business_info" }]);
    expect(store.get(topicVersionsAtom).business_info).toBe(1);
  });

  it("has the webhook screens read again when an endpoint changes or goes", () => {
    const store = createStore();
    const endpoint = {
      id: "whe_a",
      url: "https://shop.example.co.za/hooks",
      description: "",
      eventTypes: ["payment.created"],
      enabled: true,
      createdAt: 1,
      updatedAt: 1,
    };
    const before = store.get(topicVersionsAtom).webhook_endpoint;
    applyChanges(store, [{ t: "WebhookEndpointUpserted", endpoint }]);
    expect(store.get(topicVersionsAtom).webhook_endpoint).toBe(before + 1);
    applyChanges(store, [{ t: "WebhookEndpointRemoved", endpoint }]);
    expect(store.get(topicVersionsAtom).webhook_endpoint).toBe(before + 2);
  });

  it("forgets records and asks lists and details to refetch when dropped", () => {
    const store = createStore();
    applyChanges(store, [{ t: "CustomerUpserted", customer: sampleCustomer({ id: "cus_b" }) }]);
    dropCache(store);
    expect(store.get(customerAtom("cus_b"))).toBeUndefined();
    expect(store.get(topicVersionsAtom).customer).toBe(1);
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
    const before = store.get(topicVersionsAtom).business_info;
    dropCache(store);
    expect(store.get(businessInfoAtom)).toBeUndefined();
    expect(store.get(twoFactorRequiredAtom)).toBeUndefined();
    expect(store.get(topicVersionsAtom).business_info).toBe(before + 1);
    expect(store.get(profileAtom)).toBeDefined();
    forgetUser(store);
    expect(store.get(profileAtom)).toBeUndefined();
  });
});

describe("profile", () => {
  it("renames the signed-in user in the header when the profile says so", () => {
    const store = createStore();
    const merchant = { id: "mer_1", name: "Karoo Gym", role: "owner" as const, permissions: everySection("write") };
    store.set(identityAtom, { user: { id: "usr_1", name: "Old", email: "t@example.co.za" }, merchant, mode: "live", merchants: [merchant] });
    putProfile(store, sampleProfile({ user: { id: "usr_1", name: "Thandi N.", email: "t@example.co.za" } }));
    expect(store.get(identityAtom)?.user.name).toBe("Thandi N.");
  });

  it("moves the account's topic when the tab says so, and nothing else", () => {
    const store = createStore();
    const before = store.get(topicVersionsAtom);
    accountMoved(store);
    expect(store.get(topicVersionsAtom)).toEqual({ ...before, account: before.account + 1 });
  });

  it("has the account's readers ask again after a resync or a switch", () => {
    const store = createStore();
    dropCache(store);
    expect(store.get(topicVersionsAtom).account).toBe(1);
  });
});

describe("bank accounts", () => {
  const first = sampleBankAccount({ id: "bac_1", customerId: "cus_bank", createdAt: 1000 });
  const second = sampleBankAccount({ id: "bac_2", customerId: "cus_bank", bank: "fnb", branchCode: "250655", createdAt: 2000 });

  it("keeps a customer's listed accounts oldest first", () => {
    const store = createStore();
    putBankAccounts(store, "cus_bank", [second, first]);
    expect(store.get(bankAccountsAtom("cus_bank"))?.map((account) => account.id)).toEqual(["bac_1", "bac_2"]);
  });

  it("adds an account a teammate added to its customer's list, once, in age order", () => {
    const store = createStore();
    putBankAccounts(store, "cus_bank", [first]);
    applyChanges(store, [{ t: "BankAccountAdded", account: second }]);
    applyChanges(store, [{ t: "BankAccountAdded", account: second }]);
    expect(store.get(bankAccountsAtom("cus_bank"))).toEqual([first, second]);
    // Another customer's list is not touched.
    applyChanges(store, [{ t: "BankAccountAdded", account: sampleBankAccount({ id: "bac_3", customerId: "cus_other" }) }]);
    expect(store.get(bankAccountsAtom("cus_bank"))).toEqual([first, second]);
  });

  it("leaves a list nobody fetched unfetched, so its screen asks the server", () => {
    const store = createStore();
    applyChanges(store, [{ t: "BankAccountAdded", account: sampleBankAccount({ customerId: "cus_unseen" }) }]);
    expect(store.get(bankAccountsAtom("cus_unseen"))).toBeUndefined();
    applyChanges(store, [{ t: "BankAccountRemoved", id: "bac_1", customerId: "cus_unseen" }]);
    expect(store.get(bankAccountsAtom("cus_unseen"))).toBeUndefined();
    // A list answer on its way meanwhile may miss these two: the count tells it to ask again.
    expect(store.get(bankAccountChangesAtom("cus_unseen"))).toBe(2);
  });

  it("takes a removed account out of its customer's list", () => {
    const store = createStore();
    putBankAccounts(store, "cus_bank", [first, second]);
    const before = store.get(bankAccountsAtom("cus_bank"));
    applyChanges(store, [{ t: "BankAccountRemoved", id: "bac_missing", customerId: "cus_bank" }]);
    expect(store.get(bankAccountsAtom("cus_bank"))).toBe(before);
    applyChanges(store, [{ t: "BankAccountRemoved", id: "bac_1", customerId: "cus_bank" }]);
    expect(store.get(bankAccountsAtom("cus_bank"))).toEqual([second]);
  });

  it("refetches on Invalidate and forgets every list on a drop", () => {
    const store = createStore();
    putBankAccounts(store, "cus_bank", [first]);
    applyChanges(store, [{ t: "Invalidate", kind: "bank_account" }]);
    expect(store.get(topicVersionsAtom).bank_account).toBe(1);
    dropCache(store);
    expect(store.get(bankAccountsAtom("cus_bank"))).toBeUndefined();
    expect(store.get(topicVersionsAtom).bank_account).toBe(2);
  });
});

describe("pay pages, orders and cards", () => {
  it("stores upserted pay pages, orders and cards and announces each kind", () => {
    const store = createStore();
    const page = samplePayPage({ id: "pg_live" });
    const order = sampleOrder({ id: "ord_live" });
    const card = sampleCard({ id: "card_live" });
    applyChanges(store, [
      { t: "PayPageUpserted", page },
      { t: "OrderUpserted", order },
      { t: "CardUpserted", card },
    ]);
    expect(store.get(payPageAtom("pg_live"))).toEqual(page);
    expect(store.get(orderAtom("ord_live"))).toEqual(order);
    expect(store.get(cardAtom("card_live"))).toEqual(card);
    expect(store.get(payPageUpsertsAtom).ids).toEqual(["pg_live"]);
    expect(store.get(orderUpsertsAtom).ids).toEqual(["ord_live"]);
    expect(store.get(cardUpsertsAtom).ids).toEqual(["card_live"]);
  });

  it("replaces a page in place when a teammate deactivates it", () => {
    const store = createStore();
    putPayPages(store, [samplePayPage({ id: "pg_edit" })]);
    applyChanges(store, [{ t: "PayPageUpserted", page: samplePayPage({ id: "pg_edit", active: false, uses: 3 }) }]);
    expect(store.get(payPageAtom("pg_edit"))).toMatchObject({ active: false, uses: 3 });
  });

  it("follows an order from pending to paid", () => {
    const store = createStore();
    putOrders(store, [sampleOrder({ id: "ord_flow" })]);
    applyChanges(store, [{ t: "OrderUpserted", order: sampleOrder({ id: "ord_flow", status: "paid", transactionId: "txn_1" }) }]);
    expect(store.get(orderAtom("ord_flow"))).toMatchObject({ status: "paid", transactionId: "txn_1" });
  });

  it("forgets a removed card without announcing it as new", () => {
    const store = createStore();
    putCards(store, [sampleCard({ id: "card_gone" })]);
    const serial = store.get(cardUpsertsAtom).serial;
    const cardLists = store.get(topicVersionsAtom).card;
    applyChanges(store, [{ t: "CardRemoved", id: "card_gone", customerId: "cus_1" }]);
    expect(store.get(cardAtom("card_gone"))).toBeUndefined();
    expect(store.get(topicVersionsAtom).card).toBe(cardLists + 1);
    expect(store.get(cardUpsertsAtom).serial).toBe(serial);
  });

  it("drops pay pages, orders and cards with the rest of the merchant's records", () => {
    const store = createStore();
    putPayPages(store, [samplePayPage({ id: "pg_drop" })]);
    putOrders(store, [sampleOrder({ id: "ord_drop" })]);
    putCards(store, [sampleCard({ id: "card_drop" })]);
    dropCache(store);
    expect(store.get(payPageAtom("pg_drop"))).toBeUndefined();
    expect(store.get(orderAtom("ord_drop"))).toBeUndefined();
    expect(store.get(cardAtom("card_drop"))).toBeUndefined();
    expect(store.get(topicVersionsAtom)).toMatchObject({ pay_page: 1, order: 1, card: 1 });
  });
});

describe("e-mandate requests", () => {
  const request: EMandateRequest = {
    id: "emr_a",
    mode: "live",
    name: "Thandi Nkosi",
    email: "thandi@example.co.za",
    cellphone: "",
    language: "en",
    method: "debicheck",
    amountCents: 50_000,
    interval: "monthly",
    startDate: "2026-12-01",
    payerMayChange: [],
    state: "sent",
    link: "/mandate/token",
    expiresOn: "2026-12-08",
    sends: 1,
    createdAt: 1,
    updatedAt: 1,
  };

  it("keeps a request's state as the deltas tell it, and reports it to lists", () => {
    const store = createStore();
    applyChanges(store, [{ t: "EMandateRequestUpserted", request }]);
    applyChanges(store, [{ t: "EMandateRequestUpserted", request: { ...request, state: "opened" } }]);
    expect(store.get(eMandateRequestAtom("emr_a"))?.state).toBe("opened");
    expect(store.get(eMandateRequestUpsertsAtom)).toEqual({ serial: 2, ids: ["emr_a"] });
  });

  it("forgets requests when the cache is dropped", () => {
    const store = createStore();
    applyChanges(store, [{ t: "EMandateRequestUpserted", request }]);
    dropCache(store);
    expect(store.get(eMandateRequestAtom("emr_a"))).toBeUndefined();
  });
});
