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
statementName: string, };

export type BankId = "absa" | "capitec" | "fnb" | "nedbank" | "standard_bank" | "african_bank" | "investec" | "tymebank" | "discovery_bank" | "bidvest_bank" | "bank_zero" | "access_bank" | "sasfin" | "sa_post_bank" | "rand_merchant_bank" | "albaraka" | "hsbc" | "citibank" | "standard_chartered" | "finbond_mutual" | "ubank";

export type AccountType = "current" | "savings" | "transmission";

export type BankAccountInput = { bank: BankId, branchCode: string, accountType: AccountType, holderName: string, accountNumber: string, };

export type BankAccount = { id: string, customerId: string, bank: BankId, branchCode: string, accountType: AccountType, holderName: string, accountNumber: string, createdAt: number, };

export type Role = "owner" | "admin" | "member" | "viewer";

export type UserView = { id: string, name: string, email: string, };

export type MerchantView = { id: string, name: string, role: Role, };

export type PresenceMember = { 
/**
 * One entry per open tab.
 */
sessionId: string, userId: string, name: string, 
/**
 * The path of the record the tab shows (e.g. `/customers/cus_...`), if any.
 */
viewing?: string, };

export type IdType = "south_african_id" | "passport_number" | "temporary_residence" | "company_registration_number";

export type CustomerInput = { name: string, email: string, cellphone: string, idType?: IdType, idNumber: string, addressLine1: string, addressLine2: string, city: string, postalCode: string, 
/**
 * The merchant's own reference for the customer; unique per merchant when given.
 */
reference: string, };

export type Customer = { id: string, mode: Mode, name: string, email: string, cellphone: string, idType?: IdType, idNumber: string, addressLine1: string, addressLine2: string, city: string, postalCode: string, reference: string, archived: boolean, createdAt: number, updatedAt: number, };

export type CustomerStatus = "active" | "archived" | "all";

export type ErrorCode = "unauthenticated" | "forbidden" | "not_found" | "bad_frame" | "not_welcomed" | "internal" | "invalid_input" | "required" | "too_long" | "invalid_characters" | "invalid_email" | "blocked_email_domain" | "invalid_cellphone" | "invalid_sa_id" | "invalid_postal_code" | "duplicate_reference" | "already_archived" | "not_archived" | "email_taken" | "weak_password" | "common_password" | "csrf_invalid" | "rate_limited" | "wrong_password" | "invalid_code" | "two_factor_already_enabled" | "two_factor_not_enabled" | "two_factor_not_started" | "invalid_token" | "same_email" | "owners_only" | "two_factor_setup_required" | "branch_code_mismatch" | "invalid_account_number" | "duplicate_bank_account";

export type FieldError = { field: string, code: ErrorCode, };

export type WireError = { code: ErrorCode, fields?: Array<FieldError>, };

export type Resume = { epoch: string, seq: number, };

export type ClientFrame = { "t": "Hello", resume?: Resume, 
/**
 * The web app's build id; the server answers with its own.
 */
build: string, 
/**
 * Which of the user's merchants to open; the first one when absent.
 */
merchantId?: string, mode?: Mode, } | { "t": "Command", id: string, command: Command, } | { "t": "Query", id: string, query: Query, } | { "t": "Presence", viewing?: string, } | { "t": "Ping", };

export type ServerFrame = { "t": "Welcome", epoch: string, seq: number, build: string, user: UserView, merchant: MerchantView, mode: Mode, 
/**
 * Every merchant the user belongs to, for the merchant switch.
 */
merchants: Array<MerchantView>, } | { "t": "Delta", seq: number, changes: Array<Change>, } | { "t": "Reply", id: string, ok?: ReplyBody, error?: WireError, } | { "t": "Presence", members: Array<PresenceMember>, } | { "t": "Pong", } | { "t": "Resync", epoch: string, seq: number, };

export type Command = { "t": "CreateCustomer", input: CustomerInput, } | { "t": "UpdateCustomer", customerId: string, input: CustomerInput, } | { "t": "ArchiveCustomer", customerId: string, } | { "t": "RestoreCustomer", customerId: string, } | { "t": "UpdateProfile", name: string, language: Language, } | { "t": "ChangePassword", currentPassword: string, newPassword: string, } | { "t": "ChangeEmail", newEmail: string, currentPassword: string, } | { "t": "ResendVerification", } | { "t": "BeginTwoFactor", } | { "t": "ConfirmTwoFactor", code: string, } | { "t": "DisableTwoFactor", password: string, code: string, } | { "t": "RegenerateBackupCodes", code: string, } | { "t": "SignOutSession", sessionId: string, } | { "t": "SignOutOtherSessions", } | { "t": "UpdateBusinessInfo", info: BusinessInfo, } | { "t": "RequireTwoFactor", required: boolean, } | { "t": "AddBankAccount", customerId: string, input: BankAccountInput, } | { "t": "RemoveBankAccount", bankAccountId: string, };

export type Query = { "t": "ListCustomers", search?: string, status: CustomerStatus, cursor?: string, limit?: number, } | { "t": "GetCustomer", customerId: string, } | { "t": "GetProfile", } | { "t": "ListSessions", } | { "t": "GetBusinessInfo", } | { "t": "ListBankAccounts", customerId: string, };

export type ReplyBody = { "t": "Committed", seq: number, 
/**
 * The id of the record the command created or changed.
 */
id?: string, } | { "t": "CustomerPage", items: Array<Customer>, nextCursor?: string, } | { "t": "Customer", customer: Customer, } | { "t": "Done", } | { "t": "Profile", profile: Profile, } | { "t": "Sessions", sessions: Array<SessionInfo>, } | { "t": "BusinessInfo", info: BusinessInfo, twoFactorRequired: boolean, } | { "t": "TwoFactorEnrolment", secret: string, otpauthUrl: string, } | { "t": "BackupCodes", codes: Array<string>, } | { "t": "BankAccounts", accounts: Array<BankAccount>, };

export type EntityKind = "customer" | "business_info" | "bank_account";

export type Change = { "t": "CustomerUpserted", customer: Customer, } | { "t": "Invalidate", kind: EntityKind, } | { "t": "BusinessInfoUpdated", info: BusinessInfo, } | { "t": "TwoFactorPolicyUpdated", required: boolean, } | { "t": "BankAccountAdded", account: BankAccount, } | { "t": "BankAccountRemoved", id: string, customerId: string, };

export const MAX_FRAME_BYTES = 65536;
