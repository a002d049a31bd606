//! Every change a client can ask for: one `Command` per kind of write.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{
    BankAccountInput, BusinessInfo, ClockStep, CustomerInput, EMandateRequestInput, ImportTemplate,
    Language, MandateAction, Mode, OrderAction, PageInterval, PayPageInput, PaymentAction,
    PaymentInput, PaymentKind, PaymentMethodSettings, PayoutSchedule, Permissions, Role,
    UnpaidAction,
};

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum Command {
    CreateCustomer {
        input: CustomerInput,
    },
    UpdateCustomer {
        customer_id: String,
        input: CustomerInput,
        /// The customer's `version` the edit started from: a newer one is
        /// refused with `edit_conflict` instead of overwritten. Without it
        /// the save is last-write-wins (older API clients).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "number")]
        base_version: Option<u64>,
    },
    ArchiveCustomer {
        customer_id: String,
    },
    RestoreCustomer {
        customer_id: String,
    },
    // The user's own account. These touch no merchant data and carry no delta.
    UpdateProfile {
        name: String,
        language: Language,
    },
    /// The header's language switch: the user's language (screens and
    /// e-mails) alone, so a name being edited elsewhere is not overwritten.
    SetLanguage {
        language: Language,
    },
    ChangePassword {
        current_password: String,
        new_password: String,
    },
    /// The new address takes effect once its verification link is followed.
    ChangeEmail {
        new_email: String,
        current_password: String,
    },
    ResendVerification {},
    /// Answered with `TwoFactorEnrolment`; nothing changes until confirmed.
    BeginTwoFactor {},
    /// Answered with `BackupCodes`, shown once.
    ConfirmTwoFactor {
        code: String,
    },
    DisableTwoFactor {
        password: String,
        code: String,
    },
    /// Answered with `BackupCodes`, shown once; the old ones stop working.
    RegenerateBackupCodes {
        code: String,
    },
    SignOutSession {
        session_id: String,
    },
    /// Signs out every other browser of the user.
    SignOutOtherSessions {},
    // The merchant's settings. These go through the merchant's stream.
    UpdateBusinessInfo {
        info: BusinessInfo,
        /// The details' `version` the edit started from: a newer one is
        /// refused with `edit_conflict` instead of overwritten. Without it
        /// the save is last-write-wins (older API clients).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "number")]
        base_version: Option<u64>,
    },
    /// Owners only: every member must use two-factor sign-in.
    RequireTwoFactor {
        required: bool,
    },
    AddBankAccount {
        customer_id: String,
        input: BankAccountInput,
    },
    RemoveBankAccount {
        bank_account_id: String,
    },
    /// A once-off or recurring payment, with a new mandate or an existing one.
    CreatePayment {
        input: Box<PaymentInput>,
    },
    ActOnPayment {
        payment_id: String,
        action: PaymentAction,
    },
    /// Follow up a debit order the bank returned unpaid.
    ActOnUnpaid {
        transaction_id: String,
        action: UnpaidAction,
    },
    ActOnMandate {
        mandate_id: String,
        action: MandateAction,
    },
    UpdatePaymentMethodSettings {
        settings: PaymentMethodSettings,
        /// The settings' `version` the edit started from: a newer one is
        /// refused with `edit_conflict` instead of overwritten. Without it
        /// the save is last-write-wins (older API clients).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "number")]
        base_version: Option<u64>,
    },
    /// Test mode only: move the merchant's test clock forward; the
    /// collections of the span play out day by day.
    AdvanceTestClock {
        step: ClockStep,
    },
    /// Starts a spreadsheet upload of `size` bytes; answered with
    /// `ImportUpload`. Nothing is written until `ConfirmImport`.
    BeginImport {
        kind: PaymentKind,
        template: ImportTemplate,
        file_name: String,
        size: u32,
    },
    /// One piece of the file, in order from offset 0; answered with
    /// `ImportChunkReceived`.
    UploadImportChunk {
        upload_id: String,
        offset: u32,
        #[serde(with = "serde_bytes")]
        #[schemars(with = "Vec<u8>")]
        #[ts(type = "Uint8Array")]
        data: Vec<u8>,
    },
    /// Reads and checks the whole file; answered with `ImportPreview`, or an
    /// error naming why the file is refused (a missing column in `fields`).
    CheckImport {
        upload_id: String,
    },
    /// Writes the valid rows of a checked upload in the background; the
    /// reply's id is the import's, whose progress arrives as deltas. Rows
    /// repeating a payment are skipped unless `include_duplicates`; a file
    /// imported before is refused (`import_duplicate_file`) unless
    /// `allow_duplicate_file`. Both choices are recorded on the import.
    ConfirmImport {
        upload_id: String,
        #[serde(default)]
        include_duplicates: bool,
        #[serde(default)]
        allow_duplicate_file: bool,
    },
    /// Drops a checked upload without writing anything.
    DiscardImport {
        upload_id: String,
    },
    CreatePayPage {
        input: Box<PayPageInput>,
    },
    UpdatePayPage {
        page_id: String,
        input: Box<PayPageInput>,
        /// The page's `version` the edit started from: a newer one is
        /// refused with `edit_conflict` instead of overwritten. Without it
        /// the save is last-write-wins (older API clients).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "number")]
        base_version: Option<u64>,
    },
    /// A deactivated page answers payers with "not found" until activated again.
    SetPayPageActive {
        page_id: String,
        active: bool,
    },
    /// A PNG, JPEG or WebP image of at most `PAY_PAGE_LOGO_MAX_BYTES`; empty
    /// removes the logo.
    SetPayPageLogo {
        page_id: String,
        #[serde(with = "serde_bytes")]
        #[schemars(with = "Vec<u8>")]
        #[ts(type = "Uint8Array")]
        data: Vec<u8>,
    },
    ActOnOrder {
        order_id: String,
        action: OrderAction,
        /// A refund's amount in cents; absent refunds what is left of the
        /// order. Never more than was paid less what was refunded already.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "number")]
        amount_cents: Option<i64>,
    },
    /// Forgets a card on file (its token too).
    RemoveCard {
        card_id: String,
    },
    /// Charges a card on file for a recurring card payment: a new order and
    /// transaction; the reply's id is the order's.
    ChargeCard {
        card_id: String,
        #[ts(type = "number")]
        amount_cents: i64,
        reference: String,
    },
    /// Charges a card on file on a schedule (the scheduler makes each
    /// charge) from `startDate`, or replaces the card's schedule; the
    /// reply's id is the card's.
    ScheduleCard {
        card_id: String,
        #[ts(type = "number")]
        amount_cents: i64,
        interval: PageInterval,
        reference: String,
        start_date: String,
    },
    /// Stops a card's recurring charge for good.
    StopCardSchedule {
        card_id: String,
    },
    /// Makes a payer's link to sign a mandate and mails it to them; the
    /// reply's id is the request's.
    RequestEMandate {
        input: Box<EMandateRequestInput>,
    },
    /// Mails an open request's link again.
    ResendEMandateRequest {
        request_id: String,
    },
    /// Withdraws an open request: its link stops working.
    CancelEMandateRequest {
        request_id: String,
    },
    /// Adds a webhook endpoint to the socket's mode. The reply carries its
    /// signing secret, this once.
    CreateWebhookEndpoint {
        url: String,
        description: String,
        event_types: Vec<String>,
    },
    /// Changes what an endpoint is for, and pauses or enables it.
    UpdateWebhookEndpoint {
        endpoint_id: String,
        description: String,
        event_types: Vec<String>,
        enabled: bool,
    },
    /// Makes a new signing secret (in the reply, once); the old one keeps
    /// signing beside it for 24 hours.
    RollWebhookSecret {
        endpoint_id: String,
    },
    /// Sends deliveries again: the one named (failed, or delivered and lost
    /// by the receiver), or all of the endpoint's failed ones.
    ResendWebhookDeliveries {
        endpoint_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        delivery_id: Option<String>,
    },
    /// Queues a `webhook.test` delivery to this endpoint only.
    SendTestWebhookEvent {
        endpoint_id: String,
    },
    /// Removes an endpoint and its delivery log.
    DeleteWebhookEndpoint {
        endpoint_id: String,
    },
    /// Makes an API token for the socket's mode (`mode` must be it). The
    /// reply carries its secret, this once.
    CreateApiToken {
        name: String,
        mode: Mode,
        permissions: Permissions,
        /// When it stops working; never when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "number")]
        expires_at: Option<i64>,
        /// IP addresses or CIDR ranges it is accepted from; empty: any.
        #[serde(default)]
        allowed_addresses: Vec<String>,
    },
    /// Makes a new secret (in the reply, once); the old one keeps working
    /// beside it for `grace_hours` (0: stops at once).
    RollApiToken {
        token_id: String,
        grace_hours: u32,
    },
    /// Stops a token at once: its requests fail and its sockets close.
    RevokeApiToken {
        token_id: String,
    },
    // The team (owners and admins; never a role above the inviter's own).
    InviteMember {
        email: String,
        role: Role,
        /// The custom role's id, when `role` is `Custom`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        role_id: Option<String>,
    },
    ResendInvite {
        invite_id: String,
    },
    RevokeInvite {
        invite_id: String,
    },
    ChangeMemberRole {
        user_id: String,
        role: Role,
        /// The custom role's id, when `role` is `Custom`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        role_id: Option<String>,
    },
    RemoveMember {
        user_id: String,
    },
    /// Custom roles (owners and admins; never granting past their own
    /// access). Changing a role's grants reaches its members' open sockets
    /// at once; a role is deleted only when no member or invite holds it.
    CreateRole {
        name: String,
        grants: Permissions,
    },
    UpdateRole {
        role_id: String,
        name: String,
        grants: Permissions,
    },
    DeleteRole {
        role_id: String,
    },
    /// The owner hands the ownership on, confirming with their password (or,
    /// with two-factor on, a current code); they stay on as an admin.
    TransferOwnership {
        user_id: String,
        confirmation: String,
    },
    /// Owners and admins: the account payouts go to, checked with the
    /// bank; `confirmation` is the member's password, or a current code
    /// when they sign in with two factors. Payouts wait 24 hours after.
    SetSettlementAccount {
        input: BankAccountInput,
        confirmation: String,
    },
    SetPayoutSchedule {
        schedule: PayoutSchedule,
    },
    /// A payout to the settlement account of up to the available balance
    /// (its fee included).
    RequestPayout {
        #[ts(type = "number")]
        amount_cents: i64,
    },
    /// Money to a customer's bank account (refunding a debit order, a
    /// disbursement); the fee comes on top.
    PayoutToCustomer {
        customer_id: String,
        bank_account_id: String,
        #[ts(type = "number")]
        amount_cents: i64,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        transaction_id: Option<String>,
    },
}
