// Generated from the `protocol` crate by `cargo test -p protocol` with UPDATE_PROTOCOL=1.
// Do not edit by hand.

export type Mode = "live" | "test";

export type Language = "en" | "afr";

export type Profile = { user: UserView, emailVerified: boolean, 
/**
 * A new address waiting for its verification link to be followed.
 */
pendingEmail?: string, language: Language, twoFactorEnabled: boolean, backupCodesLeft: number, 
/**
 * The open merchant requires two-factor sign-in of every member.
 */
twoFactorRequired: boolean, };

export type SessionInfo = { id: string, userAgent: string, address: string, createdAt: number, lastSeenAt: number, 
/**
 * The session of the browser asking.
 */
current: boolean, };

export type BusinessInfo = { legalName: string, tradingName: string, registrationNumber: string, vatNumber: string, industry: string, physicalAddress: string, contactPerson: string, supportEmail: string, supportPhone: string, 
/**
 * The creditor abbreviated name on payers' bank statements: at most 10 characters.
 */
statementName: string, 
/**
 * Counts the saves of these details (0 before the first): an edit
 * sends it back as its `base_version`; the server ignores it on the
 * way in. Not a stream seq, as test and live mode share the details.
 */
version: number, };

export type BankId = "absa" | "capitec" | "fnb" | "nedbank" | "standard_bank" | "african_bank" | "investec" | "tymebank" | "discovery_bank" | "bidvest_bank" | "bank_zero" | "access_bank" | "sasfin" | "sa_post_bank" | "rand_merchant_bank" | "albaraka" | "hsbc" | "citibank" | "standard_chartered" | "finbond_mutual" | "ubank";

export type AccountType = "current" | "savings" | "transmission";

export type BankAccountInput = { 
/**
 * Required, but optional on the wire: an account without it is refused
 * with a `required` field error among its other mistakes, so that a
 * form sent before a bank is chosen hears of them all at once.
 */
bank?: BankId, branchCode: string, accountType: AccountType, holderName: string, accountNumber: string, };

export type BankAccount = { id: string, customerId: string, bank: BankId, branchCode: string, accountType: AccountType, holderName: string, accountNumber: string, createdAt: number, };

export type Role = "owner" | "admin" | "operations" | "finance" | "developer" | "support" | "viewer" | "custom";

export type Section = "customers" | "mandates" | "payments" | "imports" | "pay_pages" | "transactions" | "orders" | "refunds" | "exports" | "payouts" | "insights" | "developers" | "team" | "history" | "settings";

export type Access = "none" | "read" | "write";

export type Permissions = { customers: Access, mandates: Access, payments: Access, imports: Access, payPages: Access, transactions: Access, orders: Access, refunds: Access, exports: Access, payouts: Access, insights: Access, developers: Access, team: Access, history: Access, settings: Access, };

export type UserView = { id: string, name: string, email: string, };

export type MerchantView = { id: string, name: string, role: Role, 
/**
 * The custom role's name, when `role` is `Custom`.
 */
roleName?: string, 
/**
 * What the role may do, section by section: the web app hides the rest.
 */
permissions: Permissions, };

export type RecordPlace = { merchantId: string, merchantName: string, mode: Mode, };

export type PresenceMember = { userId: string, name: string, 
/**
 * The paths their tabs show (e.g. `/customers/cus_...`), one per tab,
 * sorted; a path twice means two tabs on it. Capped at a few.
 */
viewing?: Array<string>, 
/**
 * The records (paths) whose form one of their tabs has open.
 */
editing?: Array<string>, };

export type IdType = "south_african_id" | "passport_number" | "temporary_residence" | "company_registration_number";

export type CustomerInput = { name: string, email: string, cellphone: string, idType?: IdType, idNumber: string, addressLine1: string, addressLine2: string, city: string, postalCode: string, 
/**
 * The merchant's own reference for the customer; unique per merchant when given.
 */
reference: string, };

export type Customer = { id: string, mode: Mode, name: string, email: string, cellphone: string, idType?: IdType, idNumber: string, addressLine1: string, addressLine2: string, city: string, postalCode: string, reference: string, archived: boolean, createdAt: number, updatedAt: number, 
/**
 * The stream seq of the event that last changed it: an edit sends it
 * back as its `base_version`.
 */
version: number, };

export type CustomerStatus = "active" | "archived" | "all";

export type PaymentMethod = "debicheck" | "registered_mandate" | "eft_debit_order" | "card" | "instant_eft";

export type ClientType = "resident_individual" | "non_resident_individual" | "domestic_company";

export type Industry = "account_repayment" | "insurance_premium" | "pension_fund_contribution" | "medical_aid_contribution" | "unit_trust_purchase" | "charitable_or_religious_contribution" | "hire_purchase_repayment" | "bond_repayment" | "loan_repayment" | "rental_or_lease" | "subscription" | "service_fee";

export type AdjustmentCategory = "never" | "quarterly" | "biannually" | "annually" | "repo";

export type AdjustmentType = "amount" | "rate";

export type ApprovalWindow = "tt1_real_time" | "tt1_delayed" | "tt2_batch";

export type MandateStatus = "draft" | "pending_authentication" | "active" | "rejected" | "no_reply" | "suspended" | "cancelled" | "disabled" | "completed";

export type BankAccountChoice = { "t": "Existing", bankAccountId: string, } | { "t": "New", input: BankAccountInput, };

export type MandateInput = { method: PaymentMethod, bankAccount: BankAccountChoice, clientType: ClientType, industry: Industry, 
/**
 * Letters and digits, up to 14.
 */
contractReference: string, 
/**
 * The most one collection may take; at most 1.5x the amount for DebiCheck.
 */
maximumCollectionCents?: number, allowTracking: boolean, 
/**
 * 1 to 10, only when tracking is allowed.
 */
trackingDays?: number, allowDateAdjustment: boolean, variableAmount: boolean, adjustmentCategory: AdjustmentCategory, adjustmentType?: AdjustmentType, 
/**
 * A decimal percentage, up to 8 digits of which 5 after the point.
 */
adjustmentRate: string, adjustmentAmountCents?: number, 
/**
 * Required for DebiCheck.
 */
approvalWindow?: ApprovalWindow, 
/**
 * The name on the payer's statement.
 */
abbreviatedName: string, };

export type Mandate = { id: string, mode: Mode, customerId: string, customerName: string, customerEmail: string, bankAccountId: string, bank: BankId, 
/**
 * Only the last digits leave the server in lists.
 */
accountLastDigits: string, method: PaymentMethod, status: MandateStatus, archived: boolean, clientType: ClientType, industry: Industry, contractReference: string, amountCents: number, maximumCollectionCents?: number, allowTracking: boolean, trackingDays?: number, allowDateAdjustment: boolean, variableAmount: boolean, adjustmentCategory: AdjustmentCategory, adjustmentType?: AdjustmentType, adjustmentRate: string, adjustmentAmountCents?: number, approvalWindow?: ApprovalWindow, abbreviatedName: string, 
/**
 * How many times the payer has been asked to approve (DebiCheck).
 */
authenticationRequests: number, 
/**
 * The business date the payer's bank answers or the window closes.
 */
authenticationDue?: string, 
/**
 * The last collection date of the schedule it authorises, if it ends.
 */
endDate?: string, createdAt: number, updatedAt: number, };

export type MandateAction = "suspend" | "resume" | "cancel" | "resend_authentication" | "archive" | "restore";

export type MandateFilter = { status?: MandateStatus, method?: PaymentMethod, 
/**
 * Contract reference, name, e-mail, ID number or last digits of the account.
 */
search?: string, 
/**
 * Only mandates that asked a payer to approve (the e-mandates screen).
 */
eMandatesOnly: boolean, archived: boolean, 
/**
 * Only one customer's (the customer page).
 */
customerId?: string, };

export type PaymentMethodSettings = { enabled: Array<PaymentMethod>, debicheckApprovalWindow: ApprovalWindow, debicheckAllowTracking: boolean, debicheckTrackingDays: number, debicheckAllowDateAdjustment: boolean, debicheckAbbreviatedName: string, 
/**
 * The stream seq of the event that last changed them (0 before the
 * first save): an edit sends it back as its `base_version`; the server
 * ignores it on the way in.
 */
version: number, };

export type PaymentKind = "once" | "recurring";

export type Interval = "weekly" | "fortnightly" | "monthly" | "quarterly" | "biannually" | "annually";

export type PaymentStatus = "pending" | "running" | "paused" | "stopped" | "cancelled" | "completed";

export type MandateChoice = { "t": "Existing", mandateId: string, } | { "t": "New", input: MandateInput, };

export type PaymentInput = { customerId: string, 
/**
 * Required, but optional on the wire: a payment without it is refused
 * with a `required` field error among its other mistakes, so that a
 * form sent before every choice is made hears of them all at once.
 */
mandate?: MandateChoice, kind: PaymentKind, 
/**
 * Required, but optional on the wire, as `mandate` is.
 */
amountCents?: number, 
/**
 * Once-off only: the date to process.
 */
dateToProcess?: string, 
/**
 * Once-off only: letters, digits and dashes, up to 30.
 */
transactionReference: string, 
/**
 * Recurring only.
 */
startDate?: string, endDate?: string, interval?: Interval, 
/**
 * 1-31 (31 = the month's last day); weekly 1-7 from Monday; fortnightly 1-14.
 */
dayToProcess?: number, firstCollectionCents?: number, 
/**
 * EFT debit orders: start collecting at once, or wait for the merchant.
 */
startRunning: boolean, };

export type Payment = { id: string, mode: Mode, kind: PaymentKind, customerId: string, customerName: string, mandateId: string, method: PaymentMethod, status: PaymentStatus, 
/**
 * Why the system stopped it: an unpaid code, or `mandate_ended`.
 */
stopReason?: string, amountCents: number, firstCollectionCents?: number, dateToProcess?: string, transactionReference: string, startDate?: string, endDate?: string, interval?: Interval, dayToProcess?: number, 
/**
 * The business day of the next debit, while one is due.
 */
nextActionDate?: string, 
/**
 * An unpaid 02 waiting to go to the bank again: the business day it
 * is presented. Never a day with another debit of the same mandate.
 */
representationDate?: string, 
/**
 * The amount presented again.
 */
representationCents?: number, 
/**
 * The day the re-presentation was due (its next mandated date), when
 * the mandate already collects that day and it moved to the next
 * business day with no other debit, so the payer is not debited twice
 * on one day.
 */
representationMovedFrom?: string, collectedCents: number, 
/**
 * Debits raised so far, retries included.
 */
attempts: number, 
/**
 * Insufficient-funds unpaids in a row, which limit re-runs.
 */
consecutiveUnpaids: number, 
/**
 * The import that created it, and its row in the spreadsheet.
 */
importId?: string, importRow?: number, createdAt: number, updatedAt: number, };

export type PaymentAction = "start" | "pause" | "resume" | "cancel" | "retry";

export type TransactionStatus = "pending" | "sent_to_bank" | "accepted_by_bank" | "rejected_by_bank" | "in_tracking" | "paid" | "unpaid" | "disputed" | "reversed" | "cancelled";

export type TransactionStep = { status: TransactionStatus, date: string, unpaidCode?: string, };

export type UnpaidFollowUpKind = "represented" | "pay_link_sent" | "mandate_requested" | "payer_emailed";

export type UnpaidFollowUp = { kind: UnpaidFollowUpKind, 
/**
 * When it was done, on the stream's clock.
 */
doneAt: number, 
/**
 * The day chosen to present the debit again.
 */
date?: string, 
/**
 * The pay page made for the amount.
 */
payPageId?: string, 
/**
 * The e-mandate request sent.
 */
eMandateRequestId?: string, 
/**
 * The address a mail went to.
 */
email?: string, };

export type Transaction = { id: string, mode: Mode, 
/**
 * The debit order's schedule; none for a pay-page or card-on-file charge.
 */
paymentId?: string, paymentKind: PaymentKind, mandateId?: string, 
/**
 * The commerce order of a pay-page or card-on-file charge.
 */
orderId?: string, 
/**
 * None for a pay-page payer who is not kept as a customer.
 */
customerId?: string, 
/**
 * The customer's name, or the name the payer gave.
 */
customerName: string, method: PaymentMethod, 
/**
 * The payer's bank; none for a card.
 */
bank?: BankId, cardBrand?: CardBrand, 
/**
 * The bank account's last digits, or a card's last four.
 */
accountLastDigits: string, 
/**
 * Why a card or pay-by-bank payment did not go through.
 */
failure?: PayFailure, reference: string, amountCents: number, 
/**
 * The business day the bank debits.
 */
actionDate: string, status: TransactionStatus, 
/**
 * The bank's reason when unpaid, disputed or reversed.
 */
unpaidCode?: string, 
/**
 * 1 for a first presentation, more for re-runs after an unpaid 02.
 */
attempt: number, history: Array<TransactionStep>, 
/**
 * The processing fee the ledger charges when it is paid (the method's
 * price of the amount; given back if the bank takes the money back).
 */
feeCents: number, 
/**
 * The amount less the fee.
 */
netCents: number, 
/**
 * What the merchant did about it, when it came back unpaid.
 */
followUps?: Array<UnpaidFollowUp>, createdAt: number, updatedAt: number, };

export type UnpaidAction = { "t": "Represent", date: string, } | { "t": "SendPayLink", language: Language, } | { "t": "RequestMandate", language: Language, } | { "t": "EmailPayer", message: string, language: Language, };

export type SortOrder = "newest" | "oldest" | "amount_high" | "amount_low";

export type PaymentFilter = { status?: PaymentStatus, method?: PaymentMethod, 
/**
 * Created on or after / on or before, `YYYY-MM-DD`.
 */
from?: string, to?: string, minCents?: number, maxCents?: number, 
/**
 * Reference, name, e-mail, ID number or last digits of the account.
 */
search?: string, 
/**
 * Only the payments one import created.
 */
importId?: string, 
/**
 * Only one customer's (the customer page).
 */
customerId?: string, };

export type TransactionFilter = { status?: TransactionStatus, method?: PaymentMethod, 
/**
 * Action date on or after / on or before, `YYYY-MM-DD`.
 */
from?: string, to?: string, minCents?: number, maxCents?: number, search?: string, paymentId?: string, orderId?: string, 
/**
 * Only one customer's (the customer page).
 */
customerId?: string, };

export type UpcomingCollection = { paymentId: string, customerName: string, method: PaymentMethod, amountCents: number, actionDate: string, 
/**
 * An unpaid 02 presented again, rather than the schedule's own debit.
 */
representation: boolean, };

export type Dashboard = { 
/**
 * The merchant's business date: the test clock's in test mode.
 */
today: string, collectedTodayCents: number, collectedMonthCents: number, settledThisMonth: number, successRateBp: number, unpaidRatioBp: number, disputeRatioBp: number, unpaidThresholdBp: number, disputeThresholdBp: number, upcoming: Array<UpcomingCollection>, 
/**
 * How many more scheduled debits there are than `upcoming` lists.
 */
upcomingMore: number, 
/**
 * The latest changed debits, newest first.
 */
recent: Array<Transaction>, };

export type InsightBucket = "day" | "week" | "month";

export type MethodRatios = { method: PaymentMethod, settled: number, unpaid: number, disputed: number, unpaidRatioBp: number, disputeRatioBp: number, };

export type InsightPoint = { 
/**
 * The bucket's first day (`YYYY-MM-DD`).
 */
start: string, collectedCents: number, collectedCount: number, 
/**
 * Debit orders settled (paid, unpaid or disputed); the unpaid and
 * dispute ratios are of these, as the banks' thresholds are.
 */
settled: number, paid: number, unpaid: number, disputed: number, 
/**
 * Payments of every method settled (debit orders, card and pay-by-bank
 * charges, paid or not), which the success rate is of.
 */
paymentsSettled: number, paymentsPaid: number, 
/**
 * Of `payments_settled`; none in a bucket where nothing settled, so a
 * quiet day is a gap, not a 0 % day.
 */
successRateBp?: number, 
/**
 * Of `settled`; none in a bucket where no debit order settled.
 */
unpaidRatioBp?: number, disputeRatioBp?: number, 
/**
 * The methods that settled debits in the bucket.
 */
byMethod: Array<MethodRatios>, };

export type UnpaidReason = { code: string, count: number, cents: number, };

export type ForecastDay = { date: string, count: number, cents: number, };

export type Insights = { 
/**
 * The merchant's business date: the test clock's in test mode.
 */
today: string, from: string, to: string, bucket: InsightBucket, 
/**
 * Every bucket of the period, empty ones too, oldest first.
 */
points: Array<InsightPoint>, 
/**
 * Most frequent first.
 */
unpaidReasons: Array<UnpaidReason>, unpaidThresholdBp: number, disputeThresholdBp: number, 
/**
 * Today and the 29 days after it that have collections scheduled.
 */
forecast: Array<ForecastDay>, };

export type Balance = { 
/**
 * The merchant's business date: the test clock's in test mode.
 */
today: string, availableCents: number, pendingCents: number, };

export type StatementFormat = "csv" | "xlsx";

export type StatementMethodTotal = { method: PaymentMethod, count: number, amountCents: number, };

export type StatementKindTotal = { 
/**
 * The ledger kind (`payout`, `fee`, ...).
 */
kind: string, amountCents: number, };

export type StatementLine = { id: string, 
/**
 * The business date of the movement.
 */
date: string, 
/**
 * The ledger kind (`collection`, `fee`, `refund`, `payout`, ...).
 */
kind: string, 
/**
 * The collection's method; none for a payout's entries (`payout`,
 * `payout_fee`, `payout_return`), which are credits the merchant sent.
 */
method?: PaymentMethod, transactionId?: string, orderId?: string, 
/**
 * The customer's or payer's name, when the entry has one.
 */
name: string, reference: string, amountCents: number, };

export type StatementBusiness = { legalName: string, registrationNumber: string, vatNumber: string, };

export type Statement = { from: string, to: string, 
/**
 * The sum of every entry before `from`.
 */
openingBalanceCents: number, 
/**
 * Collections by method, methods with none left out.
 */
collected: Array<StatementMethodTotal>, 
/**
 * Processing fees charged (negative).
 */
feesCents: number, 
/**
 * Fees given back with money taken back or refunded (positive).
 */
feeReturnsCents: number, refundsCents: number, 
/**
 * Unpaids that arrived after a debit was paid.
 */
reversalsCents: number, disputesCents: number, 
/**
 * Payouts by ledger kind (`payout`, `payout_fee`, `payout_return`).
 */
payouts: Array<StatementKindTotal>, 
/**
 * Entries of any other kind, so the sections always add up.
 */
other: Array<StatementKindTotal>, 
/**
 * The opening balance plus every entry of the period.
 */
closingBalanceCents: number, 
/**
 * The period's entries, oldest first, from the query's offset.
 */
lines: Array<StatementLine>, 
/**
 * How many entries the period has in all.
 */
linesTotal: number, 
/**
 * Ask again from here for the next entries; absent at the end.
 */
nextOffset?: number, 
/**
 * Whose statement it is, as the business's details say.
 */
business: StatementBusiness, };

export type PayoutKind = "settlement" | "customer";

export type PayoutStatus = "pending" | "submitted" | "paid" | "failed";

export type PayoutStep = { status: PayoutStatus, 
/**
 * The business day of the step.
 */
date: string, at: number, };

export type Payout = { id: string, kind: PayoutKind, status: PayoutStatus, 
/**
 * What leaves the balance: the payout and its fee.
 */
amountCents: number, feeCents: number, 
/**
 * What reaches the bank account.
 */
netCents: number, 
/**
 * Made by the payout schedule rather than by a member.
 */
automatic: boolean, holderName: string, 
/**
 * The last four digits of the receiving account.
 */
accountLast4: string, customerId?: string, bankAccountId?: string, transactionId?: string, reason?: string, 
/**
 * The bank's reason for a failed payout (a stable code the app translates).
 */
failure?: string, 
/**
 * The business day it was asked for.
 */
requestedOn: string, history: Array<PayoutStep>, createdAt: number, updatedAt: number, };

export type PayoutLine = { entryId: string, 
/**
 * The ledger entry's kind (`collection`, `fee`, `refund`, ...).
 */
kind: string, entryDate: string, transactionId?: string, orderId?: string, 
/**
 * The part of the entry this payout settles (signed).
 */
amountCents: number, };

export type PayoutDetail = { payout: Payout, lines: Array<PayoutLine>, };

export type PayoutInterval = "off" | "daily" | "weekly" | "monthly";

export type PayoutSchedule = { interval: PayoutInterval, 
/**
 * For weekly payouts: 1 (Monday) to 5 (Friday).
 */
weekday: number, 
/**
 * For monthly payouts: 1 to 28.
 */
dayOfMonth: number, 
/**
 * An automatic payout waits until the available balance reaches this.
 */
minimumCents: number, };

export type SettlementAccount = { bank: BankId, branchCode: string, accountType: AccountType, holderName: string, 
/**
 * The last four digits only: the full number is not sent back.
 */
accountLast4: string, 
/**
 * When the bank's account verification confirmed it.
 */
verifiedAt: number, };

export type PayoutSettings = { account?: SettlementAccount, schedule: PayoutSchedule, 
/**
 * While payouts to a settlement account that changed less than 24
 * hours ago wait: until when (ms, on the stream's clock, as every
 * business time: in test mode the test clock's days count).
 */
heldUntil?: number, 
/**
 * How far the stream's clock runs ahead of the wall clock (ms): the
 * test clock's days in test mode, 0 in live mode. `held_until` less
 * this is when the hold ends by the wall clock.
 */
clockAheadMs: number, 
/**
 * The fee of one payout, in cents.
 */
feeCents: number, };

export type ClockStep = "day" | "week" | "month";

export type ImportTemplate = "debicheck" | "registered_mandate" | "eft_debit_order";

export type ImportIssue = { row: number, column: string, code: ErrorCode, };

export type ImportPreview = { uploadId: string, kind: PaymentKind, template: ImportTemplate, fileName: string, 
/**
 * Data rows read (blank rows are skipped).
 */
rows: number, valid: number, invalid: number, 
/**
 * Problems from the asked offset on, at most one page.
 */
issues: Array<ImportIssue>, 
/**
 * How many problems there are in all.
 */
issueCount: number, nextOffset?: number, 
/**
 * The latest import of the very same file (same bytes) by this
 * merchant in this mode: confirming again needs `allowDuplicateFile`.
 */
duplicateOf?: Import, 
/**
 * Valid rows that repeat an existing payment or an earlier row of the
 * file; skipped unless confirmed with `includeDuplicates`.
 */
duplicates: number, 
/**
 * The first page of those rows (`GetImportPreviewDuplicates` reads on).
 */
duplicateRows: Array<ImportIssue>, duplicatesNextOffset?: number, };

export type ImportStatus = "committing" | "completed";

export type Import = { id: string, mode: Mode, kind: PaymentKind, template: ImportTemplate, fileName: string, status: ImportStatus, 
/**
 * Data rows read from the file.
 */
rows: number, 
/**
 * Rows that passed every rule.
 */
valid: number, 
/**
 * Rows refused by a rule; never written.
 */
invalid: number, 
/**
 * Valid rows written so far.
 */
committed: number, 
/**
 * Valid rows that could not be written (their problem is recorded).
 */
failed: number, 
/**
 * Valid rows not written because they repeat a payment or an earlier
 * row (each recorded as a problem); always 0 with `includeDuplicates`.
 */
skipped: number, 
/**
 * The user chose to import rows that repeat a payment.
 */
includeDuplicates: boolean, 
/**
 * The earlier import of the same file the user chose to import again.
 */
duplicateOf?: string, createdByName: string, createdAt: number, finishedAt?: number, };

export type FileChunk = { fileName: string, contentType: string, data: Uint8Array, total: number, nextOffset?: number, };

export type AmountMode = "fixed" | "payer_chosen";

export type PageInterval = "monthly" | "annually";

export type PayPageInput = { title: string, description: string, amountMode: AmountMode, 
/**
 * The amount of a fixed page.
 */
amountCents?: number, 
/**
 * The bounds of a payer-chosen amount.
 */
minCents?: number, maxCents?: number, kind: PaymentKind, 
/**
 * Recurring pages only.
 */
interval?: PageInterval, 
/**
 * Once-off pages take card and instant EFT; recurring pages card and DebiCheck.
 */
methods: Array<PaymentMethod>, 
/**
 * The last day the page takes payments, `YYYY-MM-DD`.
 */
expiresOn?: string, maxUses?: number, 
/**
 * The merchant's reference, carried by every order and transaction.
 */
reference: string, 
/**
 * Where the payer goes after paying (https), instead of our success page.
 */
successUrl?: string, 
/**
 * The page's accent colour, `#rrggbb`.
 */
colour: string, };

export type PayPage = { id: string, mode: Mode, title: string, description: string, amountMode: AmountMode, amountCents?: number, minCents?: number, maxCents?: number, kind: PaymentKind, interval?: PageInterval, methods: Array<PaymentMethod>, expiresOn?: string, maxUses?: number, 
/**
 * Successful checkouts so far.
 */
uses: number, reference: string, successUrl?: string, colour: string, 
/**
 * The logo's version (its upload time), for `/pay/{id}/logo?v=`; none without a logo.
 */
logoVersion?: number, active: boolean, createdAt: number, updatedAt: number, 
/**
 * The stream seq of the event that last changed it: an edit sends it
 * back as its `base_version`.
 */
version: number, };

export type OrderStatus = "pending" | "paid" | "failed" | "refunded" | "cancelled" | "abandoned";

export type PayFailure = "declined" | "insufficient_funds" | "authentication_failed" | "cancelled_by_payer" | "abandoned";

export type OrderItem = { description: string, quantity: number, unitCents: number, };

export type Order = { id: string, mode: Mode, pageId?: string, items: Array<OrderItem>, amountCents: number, payerName: string, payerEmail?: string, customerId?: string, method: PaymentMethod, status: OrderStatus, failure?: PayFailure, reference: string, 
/**
 * The transaction that carries the money, once there is one.
 */
transactionId?: string, 
/**
 * What has been paid back so far; the order turns `refunded` when it
 * reaches the amount.
 */
refundedCents: number, 
/**
 * The processing fee the order costs: the method's price of the amount
 * less what refunds gave back of it.
 */
feeCents: number, 
/**
 * What the merchant keeps: the amount less refunds and the fee.
 */
netCents: number, 
/**
 * The refunds of the order, oldest first. Filled for one order (its
 * query and its changes); the orders of a list leave it empty.
 */
refunds: Array<OrderRefund>, createdAt: number, updatedAt: number, };

export type OrderRefund = { id: string, amountCents: number, feeReturnCents: number, 
/**
 * The business date of the refund.
 */
refundedOn: string, createdAt: number, };

export type OrderFilter = { status?: OrderStatus, method?: PaymentMethod, pageId?: string, 
/**
 * Payer name or e-mail, or the reference.
 */
search?: string, };

export type OrderAction = "refund" | "cancel";

export type CardBrand = "visa" | "mastercard" | "amex" | "diners" | "other";

export type Card = { id: string, mode: Mode, customerId: string, customerName: string, brand: CardBrand, lastFour: string, expiryMonth: number, expiryYear: number, 
/**
 * The pay page it was saved on, for a recurring card payment.
 */
pageId?: string, 
/**
 * The recurring charge the scheduler makes with this card, if any.
 */
schedule?: CardSchedule, createdAt: number, };

export type CardScheduleStatus = "active" | "paused" | "stopped";

export type CardPauseReason = "retries_exhausted" | "card_expired";

export type CardSchedule = { amountCents: number, interval: PageInterval, reference: string, status: CardScheduleStatus, 
/**
 * The nominal date of the next charge (`YYYY-MM-DD`).
 */
nextChargeDate: string, 
/**
 * When a refused charge is tried again.
 */
retryDate?: string, 
/**
 * Refused tries of the charge now due.
 */
failedTries: number, pauseReason?: CardPauseReason, };

export type EMandateState = "sent" | "opened" | "completed" | "declined" | "no_reply" | "expired" | "cancelled";

export type EMandateChangeable = "amount" | "start_date";

export type EMandateRequestInput = { 
/**
 * An existing customer; without one, `name`, `email` and `cellphone`
 * say who the payer is and the customer is made when they sign.
 */
customerId?: string, name: string, email: string, cellphone: string, 
/**
 * The language of the mail and of the payer's pages.
 */
language: Language, 
/**
 * DebiCheck or Registered Mandate.
 */
method: PaymentMethod, amountCents: number, 
/**
 * The most one collection may take (DebiCheck: at most 1.5 times the amount).
 */
maxCents?: number, interval: Interval, 
/**
 * The first collection, `YYYY-MM-DD`, after today.
 */
startDate: string, payerMayChange: Array<EMandateChangeable>, };

export type EMandateRequest = { id: string, mode: Mode, customerId?: string, name: string, email: string, cellphone: string, language: Language, method: PaymentMethod, amountCents: number, maxCents?: number, interval: Interval, startDate: string, payerMayChange: Array<EMandateChangeable>, state: EMandateState, 
/**
 * The payer's link, a path on this server (`/mandate/…`).
 */
link: string, 
/**
 * The last day the link works, `YYYY-MM-DD`.
 */
expiresOn: string, 
/**
 * How many times it was mailed.
 */
sends: number, 
/**
 * The mandate it made, once completed.
 */
mandateId?: string, createdAt: number, updatedAt: number, };

export type WebhookEndpoint = { id: string, url: string, description: string, eventTypes: Array<string>, enabled: boolean, 
/**
 * Set when the system paused it (`deliveries_failed`), not a person.
 */
disabledReason?: string, 
/**
 * Until when the secret before the last roll still signs.
 */
previousSecretUntil?: number, createdAt: number, 
/**
 * When it last changed (equal to `created_at` until then).
 */
updatedAt: number, };

export type DeliveryState = "pending" | "delivered" | "failed";

export type WebhookDelivery = { id: string, endpointId: string, eventId: string, eventType: string, state: DeliveryState, attempts: number, nextAttemptAt: number, 
/**
 * The body as sent.
 */
payload: string, lastAttemptAt?: number, lastStatus?: number, lastDurationMs?: number, 
/**
 * Why there was no answer (timed out, refused address, ...).
 */
lastError?: string, 
/**
 * The headers the last attempt sent, one `name: value` a line.
 */
lastRequestHeaders?: string, 
/**
 * The start of the receiver's answer.
 */
lastResponse?: string, createdAt: number, };

export type ApiTokenState = "active" | "expired" | "revoked";

export type ApiToken = { id: string, name: string, mode: Mode, 
/**
 * E.g. `pdk_live_4fT9`: the secret's first characters.
 */
prefix: string, 
/**
 * What the token may do, section by section, like a custom role.
 */
permissions: Permissions, 
/**
 * The member who made it, and their name.
 */
createdById: string, createdByName: string, createdAt: number, lastUsedAt?: number, 
/**
 * The client address of that last use.
 */
lastUsedFrom?: string, expiresAt?: number, 
/**
 * Client addresses (an IP address or a CIDR range) the token is
 * accepted from; empty: any.
 */
allowedAddresses: Array<string>, state: ApiTokenState, 
/**
 * Until when the secret before the last roll still opens the API.
 */
previousSecretUntil?: number, revokedAt?: number, };

export type Member = { userId: string, name: string, email: string, role: Role, 
/**
 * The custom role's name, when `role` is `Custom`.
 */
roleName?: string, 
/**
 * The custom role's id, when `role` is `Custom`.
 */
roleId?: string, 
/**
 * What the role grants, section by section.
 */
permissions: Permissions, 
/**
 * Whether the member signs in with a second factor.
 */
twoFactor: boolean, joinedAt: number, 
/**
 * When the member last used the dashboard (any of their sessions).
 */
lastActiveAt?: number, };

export type InviteStatus = "pending" | "accepted" | "revoked";

export type Invite = { id: string, email: string, role: Role, 
/**
 * The custom role's id and name, when `role` is `Custom`.
 */
roleId?: string, roleName?: string, status: InviteStatus, invitedBy: string, invitedByName: string, createdAt: number, expiresAt: number, };

export type Team = { members: Array<Member>, invites: Array<Invite>, twoFactorRequired: boolean, };

export type InviteDetails = { merchantName: string, email: string, role: Role, 
/**
 * The custom role's name, when `role` is `Custom`.
 */
roleName?: string, invitedByName: string, expiresAt: number, 
/**
 * The invited address has an account already: the page offers to sign
 * in and accept rather than to sign up.
 */
hasAccount: boolean, };

export type CustomRole = { id: string, name: string, grants: Permissions, createdAt: number, updatedAt: number, };

export type PresetRole = { role: Role, grants: Permissions, };

export type RoleList = { presets: Array<PresetRole>, custom: Array<CustomRole>, };

export type HistoryActorKind = "user" | "api_token" | "scheduler" | "import" | "payer" | "webhooks" | "unrecorded";

export type HistoryAction = "created" | "updated" | "removed" | "bulk_changed" | "revoked" | "ownership_transferred" | "signed_in" | "sign_in_failed" | "two_factor_enabled" | "two_factor_disabled";

export type HistoryRecordKind = "customer" | "bank_account" | "card" | "mandate" | "e_mandate_request" | "payment" | "transaction" | "import" | "pay_page" | "order" | "webhook_endpoint" | "api_token" | "member" | "invite" | "role" | "business_info" | "payment_method_settings" | "payout" | "payout_settings" | "two_factor_policy" | "business_clock" | "account";

export type HistoryEntry = { id: string, at: number, actorKind: HistoryActorKind, 
/**
 * The member's user id, the token's, the import's, the pay page's.
 */
actorId?: string, 
/**
 * The member's name (as it was then).
 */
actorName?: string, address?: string, 
/**
 * The browser of the member's session.
 */
userAgent?: string, 
/**
 * `customer`, `payment`, ... or `account` for sign-ins.
 */
recordKind: string, recordId?: string, 
/**
 * What the merchant calls the record, as it was then: a customer's or
 * token's name, a payment's customer, a webhook endpoint's URL. None for
 * settings and records with a blank name.
 */
recordName?: string, action: HistoryAction, 
/**
 * The names of the fields that changed.
 */
fields: Array<string>, 
/**
 * The section the record belongs to; none for what every member sees.
 */
section?: Section, };

export type HistoryFieldChange = { field: string, before?: string, after?: string, };

export type HistoryDetail = { entry: HistoryEntry, 
/**
 * The client-made id of the command behind it.
 */
commandId?: string, 
/**
 * The stream event it came from.
 */
seq?: number, 
/**
 * Every field of the record, before and after (changed ones and not).
 */
changes: Array<HistoryFieldChange>, };

export type RecordEdit = { actorKind: HistoryActorKind, 
/**
 * The member's user id, the token's, the import's.
 */
actorId?: string, 
/**
 * The member's name (as it was then).
 */
actorName?: string, at: number, action: HistoryAction, 
/**
 * The names of the fields that changed.
 */
fields: Array<string>, };

export type SearchKind = "customer" | "payment" | "mandate" | "transaction" | "order" | "payout";

export type SearchHit = { kind: SearchKind, id: string, 
/**
 * Who the record is of: the customer's, payer's or account holder's name.
 */
title: string, 
/**
 * The record's reference, or the customer's e-mail address.
 */
detail: string, amountCents?: number, 
/**
 * The last digits of the bank account the record is paid from or to
 * (for a customer, the account the search matched); never the whole
 * number.
 */
accountLast4?: string, 
/**
 * A payment's kind, which names its screen.
 */
paymentKind?: PaymentKind, };

export type SearchGroup = { kind: SearchKind, hits: Array<SearchHit>, };

export type HistoryFilter = { 
/**
 * A member's user id.
 */
person?: string, recordKind?: string, action?: HistoryAction, 
/**
 * From this time (ms), inclusive.
 */
from?: number, 
/**
 * Before this time (ms), exclusive.
 */
to?: number, };

export type HistoryPerson = { userId: string, name: string, 
/**
 * No longer a member of the team.
 */
former: boolean, };

export type HistoryExportPiece = { fileName: string, contentType: string, data: Uint8Array, 
/**
 * Entries this piece finished writing.
 */
entries: number, nextCursor?: string, };

export type ErrorCode = "unauthenticated" | "forbidden" | "not_found" | "bad_frame" | "not_welcomed" | "command_id_reused" | "too_many_sockets" | "internal" | "busy" | "invalid_input" | "required" | "too_long" | "invalid_characters" | "invalid_email" | "blocked_email_domain" | "invalid_cellphone" | "invalid_sa_id" | "invalid_postal_code" | "invalid_vat_number" | "invalid_registration_number" | "invalid_ip_address" | "duplicate_reference" | "already_archived" | "not_archived" | "edit_conflict" | "email_taken" | "weak_password" | "common_password" | "csrf_invalid" | "rate_limited" | "wrong_password" | "invalid_code" | "two_factor_already_enabled" | "two_factor_not_enabled" | "two_factor_not_started" | "invalid_token" | "same_email" | "owners_only" | "two_factor_setup_required" | "invite_invalid" | "invite_wrong_address" | "role_above_yours" | "already_member" | "owner_role_fixed" | "role_in_use" | "role_name_taken" | "branch_code_mismatch" | "invalid_branch_code" | "invalid_account_number" | "account_number_length" | "duplicate_bank_account" | "method_not_enabled" | "debicheck_individuals_only" | "invalid_date" | "invalid_spreadsheet_date" | "date_in_past" | "end_not_after_start" | "date_range_too_long" | "day_to_process_out_of_range" | "invalid_amount" | "maximum_below_amount" | "maximum_above_debicheck_limit" | "tracking_days_out_of_range" | "tracking_not_allowed" | "adjustment_type_required" | "adjustment_value_required" | "invalid_rate" | "mandate_not_usable" | "action_not_allowed" | "insufficient_balance" | "refund_exceeds_remaining" | "no_settlement_account" | "bank_account_not_found" | "bank_account_closed" | "bank_account_holder_mismatch" | "bank_account_type_mismatch" | "bank_account_no_debits" | "payout_below_fee" | "retry_not_allowed" | "not_unpaid" | "day_taken" | "representation_too_late" | "test_mode_only" | "import_too_large" | "import_unsupported_format" | "import_unreadable" | "import_encoding" | "import_too_many_rows" | "import_too_many_columns" | "import_sheet_too_large" | "import_empty" | "import_missing_column" | "import_duplicate_column" | "import_upload_not_found" | "import_upload_incomplete" | "import_nothing_valid" | "import_duplicate_file" | "invalid_choice" | "invalid_number" | "invalid_boolean" | "not_allowed_for_template" | "customer_archived" | "duplicate_payment" | "duplicate_row" | "invalid_colour" | "invalid_url" | "minimum_above_maximum" | "method_not_for_page" | "interval_required" | "invalid_image" | "image_too_large" | "amount_below_minimum" | "amount_above_maximum" | "card_number_invalid" | "test_card_in_live_mode" | "card_expired" | "invalid_expiry" | "invalid_cvv" | "card_declined" | "insufficient_funds" | "authentication_failed" | "payment_cancelled" | "payment_abandoned" | "page_expired" | "page_used_up" | "method_not_for_e_mandate" | "e_mandate_closed" | "amount_above_mandate_maximum" | "not_business_day" | "webhook_address_forbidden" | "webhook_address_unresolved" | "unknown_event_type" | "idempotency_key_required" | "idempotency_key_in_use" | "payload_too_large" | "method_not_allowed" | "unsupported_media_type";

export type FieldError = { field: string, code: ErrorCode, };

export type WireError = { code: ErrorCode, fields?: Array<FieldError>, 
/**
 * With `edit_conflict`: what changed since the edit's base version.
 */
conflict?: EditConflict, };

export type EditConflict = { 
/**
 * The record's version now: save again with this as the base.
 */
version: number, 
/**
 * The fields changed since the base version, with their values now.
 */
fields: Array<FieldConflict>, };

export type FieldConflict = { 
/**
 * The field's wire name (`city`, `idNumber`).
 */
field: string, 
/**
 * Its value now, as text (empty when blank).
 */
theirs: string, };

export type Resume = { epoch: string, seq: number, };

export type ClientFrame = { "t": "Hello", resume?: Resume, 
/**
 * The web app's build id; the server answers with its own.
 */
build: string, 
/**
 * Which of the user's merchants to open; the first one when absent.
 */
merchantId?: string, mode?: Mode, } | { "t": "Command", id: string, command: Command, } | { "t": "Query", id: string, query: Query, } | { "t": "Presence", viewing?: string, editing?: string, } | { "t": "Ping", };

export type ServerFrame = { "t": "Welcome", epoch: string, seq: number, build: string, user: UserView, merchant: MerchantView, mode: Mode, 
/**
 * Every merchant the user belongs to, for the merchant switch.
 */
merchants: Array<MerchantView>, } | { "t": "Delta", seq: number, changes: Array<Change>, } | { "t": "Reply", id: string, ok?: ReplyBody, error?: WireError, } | { "t": "Presence", members: Array<PresenceMember>, } | { "t": "PresenceChanged", joined?: Array<PresenceMember>, moved?: Array<PresenceMember>, left?: Array<string>, } | { "t": "Pong", } | { "t": "Access", merchant: MerchantView, } | { "t": "Resync", epoch: string, seq: number, };

export type Command = { "t": "CreateCustomer", input: CustomerInput, } | { "t": "UpdateCustomer", customerId: string, input: CustomerInput, 
/**
 * The customer's `version` the edit started from: a newer one is
 * refused with `edit_conflict` instead of overwritten. Without it
 * the save is last-write-wins (older API clients).
 */
baseVersion?: number, } | { "t": "ArchiveCustomer", customerId: string, } | { "t": "RestoreCustomer", customerId: string, } | { "t": "UpdateProfile", name: string, language: Language, } | { "t": "SetLanguage", language: Language, } | { "t": "ChangePassword", currentPassword: string, newPassword: string, } | { "t": "ChangeEmail", newEmail: string, currentPassword: string, } | { "t": "ResendVerification", } | { "t": "BeginTwoFactor", } | { "t": "ConfirmTwoFactor", code: string, } | { "t": "DisableTwoFactor", password: string, code: string, } | { "t": "RegenerateBackupCodes", code: string, } | { "t": "SignOutSession", sessionId: string, } | { "t": "SignOutOtherSessions", } | { "t": "UpdateBusinessInfo", info: BusinessInfo, 
/**
 * The details' `version` the edit started from: a newer one is
 * refused with `edit_conflict` instead of overwritten. Without it
 * the save is last-write-wins (older API clients).
 */
baseVersion?: number, } | { "t": "RequireTwoFactor", required: boolean, } | { "t": "AddBankAccount", customerId: string, input: BankAccountInput, } | { "t": "RemoveBankAccount", bankAccountId: string, } | { "t": "CreatePayment", input: PaymentInput, } | { "t": "ActOnPayment", paymentId: string, action: PaymentAction, } | { "t": "ActOnUnpaid", transactionId: string, action: UnpaidAction, } | { "t": "ActOnMandate", mandateId: string, action: MandateAction, } | { "t": "UpdatePaymentMethodSettings", settings: PaymentMethodSettings, 
/**
 * The settings' `version` the edit started from: a newer one is
 * refused with `edit_conflict` instead of overwritten. Without it
 * the save is last-write-wins (older API clients).
 */
baseVersion?: number, } | { "t": "AdvanceTestClock", step: ClockStep, } | { "t": "BeginImport", kind: PaymentKind, template: ImportTemplate, fileName: string, size: number, } | { "t": "UploadImportChunk", uploadId: string, offset: number, data: Uint8Array, } | { "t": "CheckImport", uploadId: string, } | { "t": "ConfirmImport", uploadId: string, includeDuplicates: boolean, allowDuplicateFile: boolean, } | { "t": "DiscardImport", uploadId: string, } | { "t": "CreatePayPage", input: PayPageInput, } | { "t": "UpdatePayPage", pageId: string, input: PayPageInput, 
/**
 * The page's `version` the edit started from: a newer one is
 * refused with `edit_conflict` instead of overwritten. Without it
 * the save is last-write-wins (older API clients).
 */
baseVersion?: number, } | { "t": "SetPayPageActive", pageId: string, active: boolean, } | { "t": "SetPayPageLogo", pageId: string, data: Uint8Array, } | { "t": "ActOnOrder", orderId: string, action: OrderAction, 
/**
 * A refund's amount in cents; absent refunds what is left of the
 * order. Never more than was paid less what was refunded already.
 */
amountCents?: number, } | { "t": "RemoveCard", cardId: string, } | { "t": "ChargeCard", cardId: string, amountCents: number, reference: string, } | { "t": "ScheduleCard", cardId: string, amountCents: number, interval: PageInterval, reference: string, startDate: string, } | { "t": "StopCardSchedule", cardId: string, } | { "t": "RequestEMandate", input: EMandateRequestInput, } | { "t": "ResendEMandateRequest", requestId: string, } | { "t": "CancelEMandateRequest", requestId: string, } | { "t": "CreateWebhookEndpoint", url: string, description: string, eventTypes: Array<string>, } | { "t": "UpdateWebhookEndpoint", endpointId: string, description: string, eventTypes: Array<string>, enabled: boolean, } | { "t": "RollWebhookSecret", endpointId: string, } | { "t": "ResendWebhookDeliveries", endpointId: string, deliveryId?: string, } | { "t": "SendTestWebhookEvent", endpointId: string, } | { "t": "DeleteWebhookEndpoint", endpointId: string, } | { "t": "CreateApiToken", name: string, mode: Mode, permissions: Permissions, 
/**
 * When it stops working; never when absent.
 */
expiresAt?: number, 
/**
 * IP addresses or CIDR ranges it is accepted from; empty: any.
 */
allowedAddresses: Array<string>, } | { "t": "RollApiToken", tokenId: string, graceHours: number, } | { "t": "RevokeApiToken", tokenId: string, } | { "t": "InviteMember", email: string, role: Role, 
/**
 * The custom role's id, when `role` is `Custom`.
 */
roleId?: string, } | { "t": "ResendInvite", inviteId: string, } | { "t": "RevokeInvite", inviteId: string, } | { "t": "ChangeMemberRole", userId: string, role: Role, 
/**
 * The custom role's id, when `role` is `Custom`.
 */
roleId?: string, } | { "t": "RemoveMember", userId: string, } | { "t": "CreateRole", name: string, grants: Permissions, } | { "t": "UpdateRole", roleId: string, name: string, grants: Permissions, } | { "t": "DeleteRole", roleId: string, } | { "t": "TransferOwnership", userId: string, confirmation: string, } | { "t": "SetSettlementAccount", input: BankAccountInput, confirmation: string, } | { "t": "SetPayoutSchedule", schedule: PayoutSchedule, } | { "t": "RequestPayout", amountCents: number, } | { "t": "PayoutToCustomer", customerId: string, bankAccountId: string, amountCents: number, reason: string, transactionId?: string, };

export type Query = { "t": "ListCustomers", search?: string, status: CustomerStatus, cursor?: string, limit?: number, } | { "t": "GetCustomer", customerId: string, } | { "t": "GetProfile", } | { "t": "ListSessions", } | { "t": "GetBusinessInfo", } | { "t": "ListBankAccounts", customerId: string, } | { "t": "ListMandates", filter: MandateFilter, sort: SortOrder, cursor?: string, limit?: number, } | { "t": "GetMandate", mandateId: string, } | { "t": "ListPayments", kind: PaymentKind, filter: PaymentFilter, sort: SortOrder, cursor?: string, limit?: number, } | { "t": "GetPayment", paymentId: string, } | { "t": "ListTransactions", filter: TransactionFilter, sort: SortOrder, cursor?: string, limit?: number, } | { "t": "GetTransaction", transactionId: string, } | { "t": "GetDashboard", } | { "t": "GetInsights", from: string, to: string, bucket: InsightBucket, method?: PaymentMethod, } | { "t": "GetBalance", } | { "t": "GetPayoutSettings", } | { "t": "ListPayouts", cursor?: string, limit?: number, } | { "t": "GetPayout", payoutId: string, } | { "t": "GetPaymentMethodSettings", } | { "t": "GetImportPreview", uploadId: string, offset: number, } | { "t": "GetImportPreviewDuplicates", uploadId: string, offset: number, } | { "t": "DownloadImportTemplate", template: ImportTemplate, kind: PaymentKind, offset: number, } | { "t": "DownloadImportIssues", id: string, offset: number, } | { "t": "ListImports", kind: PaymentKind, cursor?: string, limit?: number, } | { "t": "GetImport", importId: string, } | { "t": "ListImportIssues", importId: string, offset: number, limit?: number, } | { "t": "ListPayPages", cursor?: string, limit?: number, } | { "t": "GetPayPage", pageId: string, } | { "t": "ListOrders", filter: OrderFilter, cursor?: string, limit?: number, } | { "t": "GetOrder", orderId: string, } | { "t": "ListCards", customerId?: string, cursor?: string, limit?: number, } | { "t": "ListEMandateRequests", cursor?: string, limit?: number, } | { "t": "ListWebhookEndpoints", } | { "t": "ListWebhookDeliveries", endpointId: string, } | { "t": "DownloadAccountingExport", from: string, to: string, offset: number, } | { "t": "GetStatement", from: string, to: string, offset: number, } | { "t": "DownloadStatement", from: string, to: string, format: StatementFormat, language: Language, offset: number, } | { "t": "ListApiTokens", } | { "t": "GetTeam", } | { "t": "ListRoles", } | { "t": "ListHistory", filter: HistoryFilter, cursor?: string, limit?: number, } | { "t": "GetHistoryEntry", entryId: string, } | { "t": "DownloadHistory", filter: HistoryFilter, language: Language, cursor?: string, } | { "t": "LocateRecord", recordId: string, } | { "t": "GetBusinessDate", } | { "t": "GetLastEdit", recordKind: HistoryRecordKind, recordId: string, } | { "t": "Search", text: string, };

export type ReplyBody = { "t": "Committed", seq: number, 
/**
 * The id of the record the command created or changed.
 */
id?: string, } | { "t": "CustomerPage", items: Array<Customer>, nextCursor?: string, } | { "t": "Customer", customer: Customer, } | { "t": "Done", } | { "t": "Profile", profile: Profile, } | { "t": "Sessions", sessions: Array<SessionInfo>, } | { "t": "BusinessInfo", info: BusinessInfo, twoFactorRequired: boolean, } | { "t": "TwoFactorEnrolment", secret: string, otpauthUrl: string, } | { "t": "BackupCodes", codes: Array<string>, } | { "t": "BankAccounts", accounts: Array<BankAccount>, } | { "t": "MandatePage", items: Array<Mandate>, nextCursor?: string, } | { "t": "Mandate", mandate: Mandate, } | { "t": "PaymentPage", items: Array<Payment>, nextCursor?: string, } | { "t": "Payment", payment: Payment, } | { "t": "TransactionPage", items: Array<Transaction>, nextCursor?: string, } | { "t": "Transaction", transaction: Transaction, } | { "t": "Dashboard", dashboard: Dashboard, } | { "t": "Insights", insights: Insights, } | { "t": "Balance", balance: Balance, } | { "t": "Statement", statement: Statement, } | { "t": "PayoutSettings", settings: PayoutSettings, } | { "t": "Payouts", payouts: Array<Payout>, nextCursor?: string, } | { "t": "Payout", detail: PayoutDetail, } | { "t": "PaymentMethodSettings", settings: PaymentMethodSettings, } | { "t": "ImportUpload", uploadId: string, chunkBytes: number, } | { "t": "ImportChunkReceived", received: number, } | { "t": "ImportPreview", preview: ImportPreview, } | { "t": "FileChunk", chunk: FileChunk, } | { "t": "HistoryExport", piece: HistoryExportPiece, } | { "t": "ImportPage", items: Array<Import>, nextCursor?: string, } | { "t": "Import", import: Import, } | { "t": "ImportIssuePage", items: Array<ImportIssue>, total: number, nextOffset?: number, } | { "t": "PayPageList", items: Array<PayPage>, nextCursor?: string, } | { "t": "PayPage", page: PayPage, } | { "t": "OrderPage", items: Array<Order>, nextCursor?: string, } | { "t": "Order", order: Order, } | { "t": "CardPage", items: Array<Card>, nextCursor?: string, } | { "t": "EMandateRequestPage", items: Array<EMandateRequest>, nextCursor?: string, } | { "t": "WebhookEndpoints", endpoints: Array<WebhookEndpoint>, eventTypes: Array<string>, } | { "t": "WebhookDeliveries", deliveries: Array<WebhookDelivery>, } | { "t": "Team", team: Team, } | { "t": "Roles", roles: RoleList, } | { "t": "HistoryPage", items: Array<HistoryEntry>, people: Array<HistoryPerson>, nextCursor?: string, } | { "t": "HistoryEntry", detail: HistoryDetail, } | { "t": "WebhookSecret", seq: number, endpointId: string, secret?: string, } | { "t": "ApiTokens", tokens: Array<ApiToken>, } | { "t": "ApiTokenSecret", seq: number, token: ApiToken, secret?: string, } | { "t": "RecordLocation", place: RecordPlace, } | { "t": "BusinessDate", 
/**
 * `YYYY-MM-DD`.
 */
today: string, } | { "t": "LastEdit", edit: RecordEdit, } | { "t": "SearchResults", groups: Array<SearchGroup>, };

export type EntityKind = "customer" | "business_info" | "bank_account" | "mandate" | "payment" | "transaction" | "import" | "pay_page" | "order" | "card" | "e_mandate_request" | "webhook_endpoint" | "api_token";

export type Change = { "t": "CustomerUpserted", customer: Customer, } | { "t": "Invalidate", kind: EntityKind, } | { "t": "BusinessInfoUpdated", info: BusinessInfo, } | { "t": "TwoFactorPolicyUpdated", required: boolean, } | { "t": "BankAccountAdded", account: BankAccount, } | { "t": "BankAccountRemoved", id: string, customerId: string, } | { "t": "MandateUpserted", mandate: Mandate, } | { "t": "PaymentUpserted", payment: Payment, } | { "t": "TransactionUpserted", transaction: Transaction, } | { "t": "PaymentMethodSettingsUpdated", settings: PaymentMethodSettings, } | { "t": "ClockAdvanced", today: string, } | { "t": "FiguresMoved", } | { "t": "ImportUpserted", import: Import, } | { "t": "PayPageUpserted", page: PayPage, } | { "t": "OrderUpserted", order: Order, } | { "t": "CardUpserted", card: Card, } | { "t": "CardRemoved", id: string, customerId: string, } | { "t": "EMandateRequestUpserted", request: EMandateRequest, } | { "t": "WebhookEndpointUpserted", endpoint: WebhookEndpoint, } | { "t": "WebhookEndpointRemoved", endpoint: WebhookEndpoint, } | { "t": "WebhookDeliveryUpserted", delivery: WebhookDelivery, } | { "t": "ApiTokenUpserted", token: ApiToken, } | { "t": "MemberUpserted", member: Member, 
/**
 * The member as they were before a change of role (none when they
 * joined): what the account history shows as "before".
 */
before?: Member, } | { "t": "MemberRemoved", userId: string, } | { "t": "InviteUpserted", invite: Invite, } | { "t": "RoleUpserted", role: CustomRole, } | { "t": "RoleRemoved", roleId: string, } | { "t": "HistoryEntryAdded", entry: HistoryEntry, } | { "t": "PayoutUpserted", payout: Payout, } | { "t": "PayoutSettingsUpdated", settings: PayoutSettings, };

export const MAX_FRAME_BYTES = 65536;
export const PAY_PAGE_LOGO_MAX_BYTES = 24576;
export const SEARCH_MIN_CHARS = 2;
export const SEARCH_MAX_CHARS = 100;

/** South African banks in the order merchants look for them, with the universal branch code a debit to any of their branches can use and the fewest and most digits of their account numbers. */
export const BANKS: readonly { id: BankId; name: string; branchCode: string; accountDigits: readonly [number, number] }[] = [
  { id: "absa", name: "Absa", branchCode: "632005", accountDigits: [9, 11] },
  { id: "capitec", name: "Capitec", branchCode: "470010", accountDigits: [10, 10] },
  { id: "fnb", name: "FNB", branchCode: "250655", accountDigits: [10, 11] },
  { id: "nedbank", name: "Nedbank", branchCode: "198765", accountDigits: [10, 11] },
  { id: "standard_bank", name: "Standard Bank", branchCode: "051001", accountDigits: [9, 11] },
  { id: "african_bank", name: "African Bank", branchCode: "430000", accountDigits: [11, 11] },
  { id: "investec", name: "Investec", branchCode: "580105", accountDigits: [10, 11] },
  { id: "tymebank", name: "TymeBank", branchCode: "678910", accountDigits: [11, 11] },
  { id: "discovery_bank", name: "Discovery Bank", branchCode: "679000", accountDigits: [10, 11] },
  { id: "bidvest_bank", name: "Bidvest Bank", branchCode: "462005", accountDigits: [7, 11] },
  { id: "bank_zero", name: "Bank Zero", branchCode: "888000", accountDigits: [7, 11] },
  { id: "access_bank", name: "Access Bank", branchCode: "410506", accountDigits: [7, 11] },
  { id: "sasfin", name: "Sasfin", branchCode: "683000", accountDigits: [7, 11] },
  { id: "sa_post_bank", name: "SA Post Bank", branchCode: "460005", accountDigits: [7, 11] },
  { id: "rand_merchant_bank", name: "Rand Merchant Bank", branchCode: "261251", accountDigits: [7, 11] },
  { id: "albaraka", name: "Albaraka", branchCode: "800000", accountDigits: [7, 11] },
  { id: "hsbc", name: "HSBC", branchCode: "587000", accountDigits: [7, 11] },
  { id: "citibank", name: "Citibank", branchCode: "350005", accountDigits: [7, 11] },
  { id: "standard_chartered", name: "Standard Chartered", branchCode: "730020", accountDigits: [7, 11] },
  { id: "finbond_mutual", name: "Finbond Mutual", branchCode: "589000", accountDigits: [7, 11] },
  { id: "ubank", name: "Ubank", branchCode: "431010", accountDigits: [7, 11] },
];
