import type {
  ApiToken,
  BankAccount,
  BusinessInfo,
  Card,
  Customer,
  CustomRole,
  EMandateRequest,
  Import,
  Invite,
  Mandate,
  Member,
  Order,
  Payment,
  PaymentMethodSettings,
  PayPage,
  Payout,
  PayoutSettings,
  Transaction,
  WebhookEndpoint,
} from "../../protocol/wire";
import type { RecordKind } from "./historyView";

/** Where the app already words an enum's values: `<prefix>.<value>` in the locale files. */
export type Words =
  | "header.mode"
  | "languages"
  | "customers.idTypes"
  | "bankAccounts.types"
  | "cards.brand"
  | "collections.method"
  | "collections.mandateStatus"
  | "collections.paymentStatus"
  | "collections.transactionStatus"
  | "collections.clientType"
  | "collections.industry"
  | "collections.adjustmentCategory"
  | "collections.adjustmentType"
  | "collections.approvalWindow"
  | "collections.interval"
  | "collections.kind"
  | "transactions.followUpKind"
  | "commerce.failure"
  | "imports.status"
  | "orders.status"
  | "payPages.kind"
  | "payPages.interval"
  | "payPages.amountMode"
  | "eMandates.state"
  | "eMandates.changeable"
  | "developers.tokens.state"
  | "teams.roles"
  | "payouts.status"
  | "payouts.failures"
  | "accountHistory.values.inviteStatus"
  | "accountHistory.values.payoutKind"
  | "accountHistory.values.disabledReason";

/**
 * How a field's value reads: as sent (`text`), a list of texts as sent (`list`), a time in
 * milliseconds, a business date (`YYYY-MM-DD`), integer cents, yes or no, a bank's name,
 * what a role or token grants section by section (`permissions`), structured data kept as JSON,
 * one worded enum value, or a list of them (`<words>[]`). The server words the history's CSV
 * by the same table (`paydesk::domain::history_values`, whose test reads this file).
 */
export type Shown = "text" | "list" | "time" | "date" | "money" | "yesNo" | "bank" | "permissions" | "data" | Words | `${Words}[]`;

// Every field of the record as the protocol sends it: a field added to a wire type fails the
// typecheck here until it says how its value reads (and the unit test, until it has a label).
type Fields<T> = { readonly [F in keyof Required<T>]: Shown };

const customer: Fields<Customer> = {
  id: "text",
  mode: "header.mode",
  name: "text",
  email: "text",
  cellphone: "text",
  idType: "customers.idTypes",
  idNumber: "text",
  addressLine1: "text",
  addressLine2: "text",
  city: "text",
  postalCode: "text",
  reference: "text",
  archived: "yesNo",
  createdAt: "time",
  updatedAt: "time",
  version: "text",
};

const businessInfo: Fields<BusinessInfo> = {
  legalName: "text",
  tradingName: "text",
  registrationNumber: "text",
  vatNumber: "text",
  industry: "text",
  physicalAddress: "text",
  contactPerson: "text",
  supportEmail: "text",
  supportPhone: "text",
  statementName: "text",
  version: "text",
};

const bankAccount: Fields<BankAccount> = {
  id: "text",
  customerId: "text",
  bank: "bank",
  branchCode: "text",
  accountType: "bankAccounts.types",
  holderName: "text",
  accountNumber: "text",
  createdAt: "time",
};

const mandate: Fields<Mandate> = {
  id: "text",
  mode: "header.mode",
  customerId: "text",
  customerName: "text",
  customerEmail: "text",
  bankAccountId: "text",
  bank: "bank",
  accountLastDigits: "text",
  method: "collections.method",
  status: "collections.mandateStatus",
  archived: "yesNo",
  clientType: "collections.clientType",
  industry: "collections.industry",
  contractReference: "text",
  amountCents: "money",
  maximumCollectionCents: "money",
  allowTracking: "yesNo",
  trackingDays: "text",
  allowDateAdjustment: "yesNo",
  variableAmount: "yesNo",
  adjustmentCategory: "collections.adjustmentCategory",
  adjustmentType: "collections.adjustmentType",
  adjustmentRate: "text",
  adjustmentAmountCents: "money",
  approvalWindow: "collections.approvalWindow",
  abbreviatedName: "text",
  authenticationRequests: "text",
  authenticationDue: "date",
  endDate: "date",
  createdAt: "time",
  updatedAt: "time",
};

const payment: Fields<Payment> = {
  id: "text",
  mode: "header.mode",
  kind: "collections.kind",
  customerId: "text",
  customerName: "text",
  mandateId: "text",
  method: "collections.method",
  status: "collections.paymentStatus",
  stopReason: "text",
  amountCents: "money",
  firstCollectionCents: "money",
  dateToProcess: "date",
  transactionReference: "text",
  startDate: "date",
  endDate: "date",
  interval: "collections.interval",
  dayToProcess: "text",
  nextActionDate: "date",
  representationDate: "date",
  representationCents: "money",
  representationMovedFrom: "date",
  collectedCents: "money",
  attempts: "text",
  consecutiveUnpaids: "text",
  importId: "text",
  importRow: "text",
  createdAt: "time",
  updatedAt: "time",
};

const transaction: Fields<Transaction> = {
  id: "text",
  mode: "header.mode",
  paymentId: "text",
  paymentKind: "collections.kind",
  mandateId: "text",
  orderId: "text",
  customerId: "text",
  customerName: "text",
  method: "collections.method",
  bank: "bank",
  cardBrand: "cards.brand",
  accountLastDigits: "text",
  failure: "commerce.failure",
  reference: "text",
  amountCents: "money",
  actionDate: "date",
  status: "collections.transactionStatus",
  unpaidCode: "text",
  attempt: "text",
  history: "data",
  feeCents: "money",
  netCents: "money",
  followUps: "data",
  createdAt: "time",
  updatedAt: "time",
};

const paymentMethodSettings: Fields<PaymentMethodSettings> = {
  enabled: "collections.method[]",
  debicheckApprovalWindow: "collections.approvalWindow",
  debicheckAllowTracking: "yesNo",
  debicheckTrackingDays: "text",
  debicheckAllowDateAdjustment: "yesNo",
  debicheckAbbreviatedName: "text",
  version: "text",
};

const paymentImport: Fields<Import> = {
  id: "text",
  mode: "header.mode",
  kind: "collections.kind",
  // The three templates are named by their payment method.
  template: "collections.method",
  fileName: "text",
  status: "imports.status",
  rows: "text",
  valid: "text",
  invalid: "text",
  committed: "text",
  failed: "text",
  skipped: "text",
  includeDuplicates: "yesNo",
  duplicateOf: "text",
  createdByName: "text",
  createdAt: "time",
  finishedAt: "time",
};

const payPage: Fields<PayPage> = {
  id: "text",
  mode: "header.mode",
  title: "text",
  description: "text",
  amountMode: "payPages.amountMode",
  amountCents: "money",
  minCents: "money",
  maxCents: "money",
  kind: "payPages.kind",
  interval: "payPages.interval",
  methods: "collections.method[]",
  expiresOn: "date",
  maxUses: "text",
  uses: "text",
  reference: "text",
  successUrl: "text",
  colour: "text",
  logoVersion: "text",
  active: "yesNo",
  createdAt: "time",
  updatedAt: "time",
  version: "text",
};

const order: Fields<Order> = {
  id: "text",
  mode: "header.mode",
  pageId: "text",
  items: "data",
  amountCents: "money",
  payerName: "text",
  payerEmail: "text",
  customerId: "text",
  method: "collections.method",
  status: "orders.status",
  failure: "commerce.failure",
  reference: "text",
  transactionId: "text",
  refundedCents: "money",
  feeCents: "money",
  netCents: "money",
  refunds: "data",
  createdAt: "time",
  updatedAt: "time",
};

const card: Fields<Card> = {
  id: "text",
  mode: "header.mode",
  customerId: "text",
  customerName: "text",
  brand: "cards.brand",
  lastFour: "text",
  expiryMonth: "text",
  expiryYear: "text",
  pageId: "text",
  schedule: "data",
  createdAt: "time",
};

const eMandateRequest: Fields<EMandateRequest> = {
  id: "text",
  mode: "header.mode",
  customerId: "text",
  name: "text",
  email: "text",
  cellphone: "text",
  language: "languages",
  method: "collections.method",
  amountCents: "money",
  maxCents: "money",
  interval: "collections.interval",
  startDate: "date",
  payerMayChange: "eMandates.changeable[]",
  state: "eMandates.state",
  link: "text",
  expiresOn: "date",
  sends: "text",
  mandateId: "text",
  createdAt: "time",
  updatedAt: "time",
};

const apiToken: Fields<ApiToken> = {
  id: "text",
  name: "text",
  mode: "header.mode",
  prefix: "text",
  permissions: "permissions",
  createdById: "text",
  createdByName: "text",
  createdAt: "time",
  lastUsedAt: "time",
  lastUsedFrom: "text",
  expiresAt: "time",
  allowedAddresses: "list",
  state: "developers.tokens.state",
  previousSecretUntil: "time",
  revokedAt: "time",
};

// Never a secret: the endpoint's wire form has none, only until when the previous one signs.
const webhookEndpoint: Fields<WebhookEndpoint> = {
  id: "text",
  url: "text",
  description: "text",
  eventTypes: "list",
  enabled: "yesNo",
  disabledReason: "accountHistory.values.disabledReason",
  previousSecretUntil: "time",
  createdAt: "time",
  updatedAt: "time",
};

const member: Fields<Member> = {
  userId: "text",
  name: "text",
  email: "text",
  role: "teams.roles",
  roleName: "text",
  roleId: "text",
  permissions: "permissions",
  twoFactor: "yesNo",
  joinedAt: "time",
  lastActiveAt: "time",
};

const invite: Fields<Invite> = {
  id: "text",
  email: "text",
  role: "teams.roles",
  roleId: "text",
  roleName: "text",
  status: "accountHistory.values.inviteStatus",
  invitedBy: "text",
  invitedByName: "text",
  createdAt: "time",
  expiresAt: "time",
};

const role: Fields<CustomRole> = {
  id: "text",
  name: "text",
  grants: "permissions",
  createdAt: "time",
  updatedAt: "time",
};

const payout: Fields<Payout> = {
  id: "text",
  kind: "accountHistory.values.payoutKind",
  status: "payouts.status",
  amountCents: "money",
  feeCents: "money",
  netCents: "money",
  automatic: "yesNo",
  holderName: "text",
  accountLast4: "text",
  customerId: "text",
  bankAccountId: "text",
  transactionId: "text",
  reason: "text",
  failure: "payouts.failures",
  requestedOn: "date",
  history: "data",
  createdAt: "time",
  updatedAt: "time",
};

const payoutSettings: Fields<PayoutSettings> = {
  account: "data",
  schedule: "data",
  heldUntil: "time",
  clockAheadMs: "text",
  feeCents: "money",
};

/**
 * Every field a history entry of each record kind can name (the server records the protocol's
 * record as it was sent: `store/history.rs`), and how its value reads. An account's entries are
 * sign-ins, which name no field. The business date and the two-factor rule are recorded as one-field objects.
 */
/**
 * Fields found only inside structured data (`data`: a debit's steps, an order's items and
 * refunds, a payout schedule, a settlement account, a card's schedule), which have labels of
 * their own beside the records' fields.
 */
export const DATA_FIELDS = [
  "date",
  "quantity",
  "unitCents",
  "refundedOn",
  "feeReturnCents",
  "weekday",
  "dayOfMonth",
  "minimumCents",
  "verifiedAt",
  "nextChargeDate",
  "retryDate",
  "failedTries",
  "at",
  "doneAt",
  "payPageId",
  "eMandateRequestId",
] as const;

/**
 * Fields inside a record's structured data whose values are worded apart from any record's
 * field of the same name: a transaction's follow-ups' `kind` is not a payment's kind. The
 * server's history file agrees (`history_values::NESTED_SHOWN`).
 */
export const NESTED_FIELDS: Readonly<Partial<Record<RecordKind, Readonly<Record<string, Shown>>>>> = {
  transaction: { kind: "transactions.followUpKind" },
};

export const RECORD_FIELDS: Readonly<Record<RecordKind, Readonly<Record<string, Shown>>>> = {
  customer,
  bank_account: bankAccount,
  card,
  mandate,
  e_mandate_request: eMandateRequest,
  payment,
  transaction,
  import: paymentImport,
  pay_page: payPage,
  order,
  webhook_endpoint: webhookEndpoint,
  api_token: apiToken,
  member,
  invite,
  role,
  business_info: businessInfo,
  payment_method_settings: paymentMethodSettings,
  payout,
  payout_settings: payoutSettings,
  two_factor_policy: { required: "yesNo" },
  business_clock: { today: "date" },
  account: {},
};
