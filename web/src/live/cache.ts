import { atom } from "jotai";
import type {
  BankAccount,
  BusinessInfo,
  Card,
  Change,
  Customer,
  EMandateRequest,
  EntityKind,
  ErrorCode,
  HistoryEntry,
  Import,
  Mandate,
  Order,
  PayPage,
  Payment,
  PaymentMethodSettings,
  Profile,
  Transaction,
  WebhookDelivery,
} from "../protocol/wire";
import { identityAtom } from "./atoms";
import { atomFamily, type AtomFamily } from "./family";
import { laterImport } from "./importProgress";
import type { Store } from "./store";

// Normalised entity cache: one atom per record; lists keep ids and read records from here.
export const customerAtom = atomFamily<Customer | undefined>(undefined);
export const mandateAtom = atomFamily<Mandate | undefined>(undefined);
export const paymentAtom = atomFamily<Payment | undefined>(undefined);
export const transactionAtom = atomFamily<Transaction | undefined>(undefined);
export const importAtom = atomFamily<Import | undefined>(undefined);
export const payPageAtom = atomFamily<PayPage | undefined>(undefined);
export const orderAtom = atomFamily<Order | undefined>(undefined);
export const cardAtom = atomFamily<Card | undefined>(undefined);
export const eMandateRequestAtom = atomFamily<EMandateRequest | undefined>(undefined);

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

// The open merchant's payment method switches and DebiCheck defaults.
export const paymentMethodSettingsAtom = atom<PaymentMethodSettings | undefined>(undefined);

// The merchant's business date as the last delta told it (the test clock's in test mode);
// undefined until a screen fetched the dashboard or the clock moved.
export const businessDateAtom = atom<string | undefined>(undefined);

// What a screen's read can follow: a kind's lists (Invalidate, a removal, a resync), the team,
// the balance and payouts, the figures built from money (home, insights, the statement), the
// history, and the signed-in user's own account (profile and sessions). Each is a counter that
// the changes bump; `useLiveQuery` asks again when one it follows moves.
export type Topic = EntityKind | "team" | "payouts" | "figures" | "history" | "account";
const NO_VERSIONS: Record<Topic, number> = {
  customer: 0,
  business_info: 0,
  bank_account: 0,
  mandate: 0,
  payment: 0,
  transaction: 0,
  import: 0,
  pay_page: 0,
  order: 0,
  card: 0,
  e_mandate_request: 0,
  webhook_endpoint: 0,
  api_token: 0,
  team: 0,
  payouts: 0,
  figures: 0,
  history: 0,
  account: 0,
};
export const topicVersionsAtom = atom<Record<Topic, number>>(NO_VERSIONS);

// The answers of reads that are no records (figures, lists of settings, the team), by query
// (or by the name of a read of several pages), so a screen opened again shows the last answer
// while it asks anew; forgotten with the records on a resync or a switch of business or mode.
export type QueryAnswer = { value?: unknown; error?: ErrorCode };
export const queryAnswerAtom = atomFamily<QueryAnswer | undefined>(undefined);

// Bumped when every shown record must be fetched again (Resync, merchant switch).
export const entityVersionAtom = atom(0);

// The ids of the last upserted records per kind, so lists can notice new ones.
export type UpsertFeed = { serial: number; ids: string[] };
export const customerUpsertsAtom = atom<UpsertFeed>({ serial: 0, ids: [] });
export const mandateUpsertsAtom = atom<UpsertFeed>({ serial: 0, ids: [] });
// Payments also carry what the tab knew of each before the change (undefined when it knew
// nothing), so a screen of sums and schedules (home's upcoming debits) can tell what moved.
export type PaymentFeed = UpsertFeed & { before: ReadonlyMap<string, Payment | undefined> };
export const paymentUpsertsAtom = atom<PaymentFeed>({ serial: 0, ids: [], before: new Map() });
export const transactionUpsertsAtom = atom<UpsertFeed>({ serial: 0, ids: [] });
export const importUpsertsAtom = atom<UpsertFeed>({ serial: 0, ids: [] });
export const payPageUpsertsAtom = atom<UpsertFeed>({ serial: 0, ids: [] });
export const orderUpsertsAtom = atom<UpsertFeed>({ serial: 0, ids: [] });
export const cardUpsertsAtom = atom<UpsertFeed>({ serial: 0, ids: [] });
export const eMandateRequestUpsertsAtom = atom<UpsertFeed>({ serial: 0, ids: [] });

// Webhook deliveries as they are queued and attempted: the endpoint page folds them into its log.
export type DeliveryFeed = { serial: number; deliveries: WebhookDelivery[] };
export const webhookDeliveriesAtom = atom<DeliveryFeed>({ serial: 0, deliveries: [] });
// The history entries the last delta brought, oldest first: the history screen shows the
// ones its filters match above what it listed.
export type HistoryFeed = { serial: number; entries: HistoryEntry[] };
export const historyFeedAtom = atom<HistoryFeed>({ serial: 0, entries: [] });

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

function bump(store: Store, topic: Topic): void {
  store.set(topicVersionsAtom, (versions) => ({ ...versions, [topic]: versions[topic] + 1 }));
}

/**
 * The signed-in user's account (profile, sessions) may have changed. No delta carries it: the
 * tab says so itself after its own account commands, and when it is shown again (a link
 * followed or a session ended in another tab).
 */
export function accountMoved(store: Store): void {
  bump(store, "account");
}

export function putMandates(store: Store, mandates: Mandate[]): void {
  for (const mandate of mandates) store.set(mandateAtom(mandate.id), mandate);
}

export function putPayments(store: Store, payments: Payment[]): void {
  for (const payment of payments) store.set(paymentAtom(payment.id), payment);
}

export function putTransactions(store: Store, transactions: Transaction[]): void {
  for (const transaction of transactions) store.set(transactionAtom(transaction.id), transaction);
}

/** Stores imports as read, never behind progress a delta already showed. */
export function putImports(store: Store, imports: Import[]): void {
  for (const entry of imports) store.set(importAtom(entry.id), (known) => laterImport(known, entry));
}

export function putPayPages(store: Store, pages: PayPage[]): void {
  for (const page of pages) store.set(payPageAtom(page.id), page);
}

export function putOrders(store: Store, orders: Order[]): void {
  for (const order of orders) store.set(orderAtom(order.id), order);
}

export function putCards(store: Store, cards: Card[]): void {
  for (const card of cards) store.set(cardAtom(card.id), card);
}

export function putEMandateRequests(store: Store, requests: EMandateRequest[]): void {
  for (const request of requests) store.set(eMandateRequestAtom(request.id), request);
}

function announce(store: Store, feed: typeof customerUpsertsAtom, ids: string[]): void {
  if (ids.length > 0) store.set(feed, (last) => ({ serial: last.serial + 1, ids }));
}

// Typed `never` so a Change the protocol adds does not compile until applyChanges handles it.
// At run time it does nothing: a newer server's change is skipped, as before, until the tab
// reloads onto the matching build.
function ignoreUnknown(_change: never): void {}

export function applyChanges(store: Store, changes: Change[]): void {
  const upserted: string[] = [];
  const mandates: string[] = [];
  const payments: string[] = [];
  const paymentsBefore = new Map<string, Payment | undefined>();
  const transactions: string[] = [];
  const imports: string[] = [];
  const payPages: string[] = [];
  const orders: string[] = [];
  const cards: string[] = [];
  const requests: string[] = [];
  const deliveries: WebhookDelivery[] = [];
  const history: HistoryEntry[] = [];
  for (const change of changes) {
    switch (change.t) {
      case "CustomerUpserted":
        store.set(customerAtom(change.customer.id), change.customer);
        upserted.push(change.customer.id);
        break;
      case "MandateUpserted":
        store.set(mandateAtom(change.mandate.id), change.mandate);
        mandates.push(change.mandate.id);
        break;
      case "PaymentUpserted":
        if (!paymentsBefore.has(change.payment.id)) paymentsBefore.set(change.payment.id, store.get(paymentAtom(change.payment.id)));
        store.set(paymentAtom(change.payment.id), change.payment);
        payments.push(change.payment.id);
        break;
      case "TransactionUpserted":
        store.set(transactionAtom(change.transaction.id), change.transaction);
        transactions.push(change.transaction.id);
        break;
      case "ImportUpserted":
        putImports(store, [change.import]);
        imports.push(change.import.id);
        break;
      case "PayPageUpserted":
        store.set(payPageAtom(change.page.id), change.page);
        payPages.push(change.page.id);
        break;
      case "OrderUpserted":
        store.set(orderAtom(change.order.id), change.order);
        orders.push(change.order.id);
        break;
      case "CardUpserted":
        store.set(cardAtom(change.card.id), change.card);
        cards.push(change.card.id);
        break;
      case "CardRemoved":
        // The row draws nothing at once; the card lists are read again, so an emptied one says so.
        store.set(cardAtom(change.id), undefined);
        bump(store, "card");
        break;
      case "EMandateRequestUpserted":
        store.set(eMandateRequestAtom(change.request.id), change.request);
        requests.push(change.request.id);
        break;
      // The endpoints' screens read an endpoint and its log afresh, whichever tab changed it.
      case "WebhookEndpointUpserted":
      case "WebhookEndpointRemoved":
        bump(store, "webhook_endpoint");
        break;
      case "WebhookDeliveryUpserted":
        deliveries.push(change.delivery);
        break;
      case "PaymentMethodSettingsUpdated":
        store.set(paymentMethodSettingsAtom, change.settings);
        break;
      case "ClockAdvanced":
        store.set(businessDateAtom, change.today);
        break;
      // The server adds it for members who read figures, whatever moved them.
      case "FiguresMoved":
        bump(store, "figures");
        bump(store, "payouts");
        break;
      case "PayoutUpserted":
      case "PayoutSettingsUpdated":
        bump(store, "payouts");
        break;
      case "Invalidate":
        bump(store, change.kind);
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
      case "ApiTokenUpserted":
        bump(store, "api_token");
        break;
      case "MemberUpserted":
      case "MemberRemoved":
      case "InviteUpserted":
      case "RoleUpserted":
      case "RoleRemoved":
        bump(store, "team");
        break;
      case "HistoryEntryAdded":
        history.push(change.entry);
        bump(store, "history");
        break;
      default:
        ignoreUnknown(change);
    }
  }
  announce(store, customerUpsertsAtom, upserted);
  announce(store, mandateUpsertsAtom, mandates);
  if (payments.length > 0) store.set(paymentUpsertsAtom, (last) => ({ serial: last.serial + 1, ids: payments, before: paymentsBefore }));
  announce(store, transactionUpsertsAtom, transactions);
  announce(store, importUpsertsAtom, imports);
  announce(store, payPageUpsertsAtom, payPages);
  announce(store, orderUpsertsAtom, orders);
  announce(store, cardUpsertsAtom, cards);
  announce(store, eMandateRequestUpsertsAtom, requests);
  if (deliveries.length > 0) store.set(webhookDeliveriesAtom, (feed) => ({ serial: feed.serial + 1, deliveries }));
  if (history.length > 0) store.set(historyFeedAtom, (last) => ({ serial: last.serial + 1, entries: history }));
}

function forgetFamily<T>(family: AtomFamily<T | undefined>): (store: Store) => void {
  return (store) => {
    for (const id of family.keys()) store.set(family(id), undefined);
  };
}

// How to forget each entity kind's records. Keyed by the protocol's EntityKind so that a kind
// added there does not compile until its atoms exist and are listed here: a kind left out would
// show one merchant's records to the next.
const FORGET_KIND: Record<EntityKind, (store: Store) => void> = {
  customer: forgetFamily(customerAtom),
  bank_account: forgetFamily(bankAccountsAtom),
  mandate: forgetFamily(mandateAtom),
  payment: forgetFamily(paymentAtom),
  transaction: forgetFamily(transactionAtom),
  import: forgetFamily(importAtom),
  pay_page: forgetFamily(payPageAtom),
  order: forgetFamily(orderAtom),
  card: forgetFamily(cardAtom),
  e_mandate_request: forgetFamily(eMandateRequestAtom),
  // Endpoints and their delivery log are read afresh by the screens that show them.
  webhook_endpoint: () => {},
  // Tokens too: the tokens screen reads its list afresh when one changes.
  api_token: () => {},
  business_info: (store) => {
    store.set(businessInfoAtom, undefined);
    store.set(twoFactorRequiredAtom, undefined);
  },
};

// Forget every merchant record and list, so whatever is on screen fetches afresh.
// The profile stays: it belongs to the user, and screens refetch it on the version bump.
export function dropCache(store: Store): void {
  for (const forget of Object.values(FORGET_KIND)) forget(store);
  store.set(paymentMethodSettingsAtom, undefined);
  store.set(businessDateAtom, undefined);
  forgetFamily(queryAnswerAtom)(store);
  for (const topic of Object.keys(NO_VERSIONS) as Topic[]) bump(store, topic);
  store.set(entityVersionAtom, (version) => version + 1);
}

/** After sign-out: nothing of this user may stay for the next one. */
export function forgetUser(store: Store): void {
  dropCache(store);
  store.set(profileAtom, undefined);
}
