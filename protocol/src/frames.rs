use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{
    ApiToken, Balance, BankAccount, BankAccountInput, BusinessInfo, Card, ClockStep, Customer,
    CustomerInput, CustomerStatus, Dashboard, EMandateRequest, EMandateRequestInput, FileChunk,
    HistoryDetail, HistoryEntry, HistoryFilter, HistoryPerson, Import, ImportIssue, ImportPreview,
    ImportTemplate, Invite, Language, Mandate, MandateAction, MandateFilter, Member, MerchantView,
    Mode, Order, OrderAction, OrderFilter, PageInterval, PayPage, PayPageInput, Payment,
    PaymentAction, PaymentFilter, PaymentInput, PaymentKind, PaymentMethodSettings, Permissions,
    PresenceMember, Profile, Role, SessionInfo, SortOrder, Team, Transaction, TransactionFilter,
    UserView, WebhookDelivery, WebhookEndpoint, WireError,
};

/// Where a client left off: the stream's epoch and the last delta it applied.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Resume {
    pub epoch: String,
    #[ts(type = "number")]
    pub seq: u64,
}

/// Frames a browser tab sends.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum ClientFrame {
    /// First frame on a socket; sent again to switch merchant or mode without a reload.
    Hello {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        resume: Option<Resume>,
        /// The web app's build id; the server answers with its own.
        build: String,
        /// Which of the user's merchants to open; the first one when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        merchant_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        mode: Option<Mode>,
    },
    /// A mutation. `id` is made by the client; a retry with the same id runs once.
    Command {
        id: String,
        command: Command,
    },
    /// A read. Answered by a `Reply` with the same id.
    Query {
        id: String,
        query: Query,
    },
    /// Which record this tab shows now (a path), or none.
    Presence {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        viewing: Option<String>,
    },
    Ping {},
}

/// Frames the server sends.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum ServerFrame {
    /// Answer to `Hello`: who and where the socket is, and the stream position
    /// from which deltas follow.
    Welcome {
        epoch: String,
        #[ts(type = "number")]
        seq: u64,
        build: String,
        user: UserView,
        merchant: MerchantView,
        mode: Mode,
        /// Every merchant the user belongs to, for the merchant switch.
        merchants: Vec<MerchantView>,
    },
    /// Changes committed under `seq`; `seq` rises by exactly one per delta.
    Delta {
        #[ts(type = "number")]
        seq: u64,
        changes: Vec<Change>,
    },
    /// Answer to a `Command` or `Query`: exactly one of `ok` and `error`.
    Reply {
        id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        ok: Option<ReplyBody>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        error: Option<WireError>,
    },
    /// Everyone of the merchant online now, one entry per tab.
    Presence {
        members: Vec<PresenceMember>,
    },
    Pong {},
    /// The member's role on this merchant changed while the socket was open.
    Access {
        merchant: MerchantView,
    },
    /// The missed deltas cannot be replayed: refetch what is shown, then
    /// carry on from this position.
    Resync {
        epoch: String,
        #[ts(type = "number")]
        seq: u64,
    },
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum Command {
    CreateCustomer {
        input: CustomerInput,
    },
    UpdateCustomer {
        customer_id: String,
        input: CustomerInput,
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
    ActOnMandate {
        mandate_id: String,
        action: MandateAction,
    },
    UpdatePaymentMethodSettings {
        settings: PaymentMethodSettings,
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
    },
    RemoveMember {
        user_id: String,
    },
    /// The owner hands the ownership on, confirming with their password (or,
    /// with two-factor on, a current code); they stay on as an admin.
    TransferOwnership {
        user_id: String,
        confirmation: String,
    },
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum Query {
    /// Newest first. `cursor` is the `nextCursor` of the previous page.
    ListCustomers {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        search: Option<String>,
        #[serde(default)]
        status: CustomerStatus,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    GetCustomer {
        customer_id: String,
    },
    GetProfile {},
    ListSessions {},
    GetBusinessInfo {},
    /// A customer's bank accounts, oldest first.
    ListBankAccounts {
        customer_id: String,
    },
    ListMandates {
        #[serde(default)]
        filter: MandateFilter,
        #[serde(default)]
        sort: SortOrder,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    GetMandate {
        mandate_id: String,
    },
    ListPayments {
        kind: PaymentKind,
        #[serde(default)]
        filter: PaymentFilter,
        #[serde(default)]
        sort: SortOrder,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    GetPayment {
        payment_id: String,
    },
    ListTransactions {
        #[serde(default)]
        filter: TransactionFilter,
        #[serde(default)]
        sort: SortOrder,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    GetTransaction {
        transaction_id: String,
    },
    GetDashboard {},
    /// The balance the ledger keeps: available and pending.
    GetBalance {},
    GetPaymentMethodSettings {},
    /// Another page of a checked upload's problems.
    GetImportPreview {
        upload_id: String,
        #[serde(default)]
        offset: u32,
    },
    /// Another page of a checked upload's rows that repeat a payment or an
    /// earlier row; answered with `ImportIssuePage`.
    GetImportPreviewDuplicates {
        upload_id: String,
        #[serde(default)]
        offset: u32,
    },
    /// The empty template of a layout, as xlsx, piece by piece.
    DownloadImportTemplate {
        template: ImportTemplate,
        kind: PaymentKind,
        #[serde(default)]
        offset: u32,
    },
    /// The invalid rows of a checked upload (`upl_…`) or of an import
    /// (`imp_…`) as xlsx with an error column, piece by piece.
    DownloadImportIssues {
        id: String,
        #[serde(default)]
        offset: u32,
    },
    /// Newest first.
    ListImports {
        kind: PaymentKind,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    GetImport {
        import_id: String,
    },
    /// An import's problems (invalid rows, and valid rows that failed to
    /// write), by row number.
    ListImportIssues {
        import_id: String,
        #[serde(default)]
        offset: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    /// Newest first.
    ListPayPages {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    GetPayPage {
        page_id: String,
    },
    /// Newest first.
    ListOrders {
        #[serde(default)]
        filter: OrderFilter,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    GetOrder {
        order_id: String,
    },
    /// Cards on file, newest first; one customer's when `customerId` is set.
    ListCards {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        customer_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    /// Electronic mandate requests, newest first.
    ListEMandateRequests {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    /// The stream's webhook endpoints, oldest first, with the event types
    /// an endpoint may subscribe to.
    ListWebhookEndpoints {},
    /// An endpoint's deliveries, newest first (the latest 100).
    ListWebhookDeliveries {
        endpoint_id: String,
    },
    /// The debits the bank paid with a settlement date from `from` to `to`
    /// (`YYYY-MM-DD`, inclusive, at most 366 days) as a bank-statement CSV
    /// for accounting packages, piece by piece.
    DownloadAccountingExport {
        from: String,
        to: String,
        #[serde(default)]
        offset: u32,
    },
    /// The stream's API tokens (the socket's mode), newest first.
    ListApiTokens {},
    GetTeam {},
    /// The account history, newest first, with the members it can be
    /// filtered by.
    ListHistory {
        #[serde(default)]
        filter: HistoryFilter,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    /// One history entry in full.
    GetHistoryEntry {
        entry_id: String,
    },
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum ReplyBody {
    /// A command's effect is carried by the delta with this `seq`.
    Committed {
        #[ts(type = "number")]
        seq: u64,
        /// The id of the record the command created or changed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<String>,
    },
    CustomerPage {
        items: Vec<Customer>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_cursor: Option<String>,
    },
    Customer {
        customer: Box<Customer>,
    },
    /// A command that changed the user's own account.
    Done {},
    Profile {
        profile: Box<Profile>,
    },
    Sessions {
        sessions: Vec<SessionInfo>,
    },
    BusinessInfo {
        info: Box<BusinessInfo>,
        two_factor_required: bool,
    },
    TwoFactorEnrolment {
        secret: String,
        otpauth_url: String,
    },
    BackupCodes {
        codes: Vec<String>,
    },
    BankAccounts {
        accounts: Vec<BankAccount>,
    },
    MandatePage {
        items: Vec<Mandate>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_cursor: Option<String>,
    },
    Mandate {
        mandate: Box<Mandate>,
    },
    PaymentPage {
        items: Vec<Payment>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_cursor: Option<String>,
    },
    Payment {
        payment: Box<Payment>,
    },
    TransactionPage {
        items: Vec<Transaction>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_cursor: Option<String>,
    },
    Transaction {
        transaction: Box<Transaction>,
    },
    Dashboard {
        dashboard: Box<Dashboard>,
    },
    Balance {
        balance: Box<Balance>,
    },
    PaymentMethodSettings {
        settings: Box<PaymentMethodSettings>,
    },
    ImportUpload {
        upload_id: String,
        chunk_bytes: u32,
    },
    ImportChunkReceived {
        received: u32,
    },
    ImportPreview {
        preview: Box<ImportPreview>,
    },
    FileChunk {
        chunk: Box<FileChunk>,
    },
    ImportPage {
        items: Vec<Import>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_cursor: Option<String>,
    },
    Import {
        import: Box<Import>,
    },
    ImportIssuePage {
        items: Vec<ImportIssue>,
        total: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_offset: Option<u32>,
    },
    PayPageList {
        items: Vec<PayPage>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_cursor: Option<String>,
    },
    PayPage {
        page: Box<PayPage>,
    },
    OrderPage {
        items: Vec<Order>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_cursor: Option<String>,
    },
    Order {
        order: Box<Order>,
    },
    CardPage {
        items: Vec<Card>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_cursor: Option<String>,
    },
    EMandateRequestPage {
        items: Vec<EMandateRequest>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_cursor: Option<String>,
    },
    WebhookEndpoints {
        endpoints: Vec<WebhookEndpoint>,
        event_types: Vec<String>,
    },
    WebhookDeliveries {
        deliveries: Vec<WebhookDelivery>,
    },
    Team {
        team: Box<Team>,
    },
    HistoryPage {
        items: Vec<HistoryEntry>,
        people: Vec<HistoryPerson>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_cursor: Option<String>,
    },
    HistoryEntry {
        detail: Box<HistoryDetail>,
    },
    /// A command that made an endpoint's signing secret: committed like
    /// `Committed`, with the secret. The copy kept for retries of the
    /// command has no secret: it is shown once, never stored in the clear.
    WebhookSecret {
        #[ts(type = "number")]
        seq: u64,
        endpoint_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        secret: Option<String>,
    },
    ApiTokens {
        tokens: Vec<ApiToken>,
    },
    /// A command that made an API token's secret (create and roll):
    /// committed like `Committed`, with the secret and the token as it is
    /// now. The copy kept for retries has no secret, like `WebhookSecret`.
    ApiTokenSecret {
        #[ts(type = "number")]
        seq: u64,
        token: Box<ApiToken>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        secret: Option<String>,
    },
}

/// The kinds of record a delta can touch.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EntityKind {
    Customer,
    BusinessInfo,
    BankAccount,
    Mandate,
    Payment,
    Transaction,
    Import,
    PayPage,
    Order,
    Card,
    EMandateRequest,
    WebhookEndpoint,
    ApiToken,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum Change {
    /// The customer as it is now (created, edited, archived or restored).
    CustomerUpserted {
        customer: Box<Customer>,
    },
    /// Too many records of a kind changed at once: refetch lists of that kind.
    Invalidate {
        kind: EntityKind,
    },
    BusinessInfoUpdated {
        info: Box<BusinessInfo>,
    },
    TwoFactorPolicyUpdated {
        required: bool,
    },
    BankAccountAdded {
        account: Box<BankAccount>,
    },
    BankAccountRemoved {
        id: String,
        customer_id: String,
    },
    MandateUpserted {
        mandate: Box<Mandate>,
    },
    PaymentUpserted {
        payment: Box<Payment>,
    },
    TransactionUpserted {
        transaction: Box<Transaction>,
    },
    PaymentMethodSettingsUpdated {
        settings: Box<PaymentMethodSettings>,
    },
    /// The merchant's business date moved (the test clock, or midnight).
    ClockAdvanced {
        today: String,
    },
    /// An import as it is now: its progress while it commits, then its summary.
    ImportUpserted {
        import: Box<Import>,
    },
    PayPageUpserted {
        page: Box<PayPage>,
    },
    OrderUpserted {
        order: Box<Order>,
    },
    CardUpserted {
        card: Box<Card>,
    },
    CardRemoved {
        id: String,
        customer_id: String,
    },
    EMandateRequestUpserted {
        request: Box<EMandateRequest>,
    },
    /// A webhook delivery as its endpoint's log shows it: queued, or after
    /// an attempt.
    WebhookDeliveryUpserted {
        delivery: Box<WebhookDelivery>,
    },
    /// An API token as it is now (made, rolled or revoked): what the
    /// account history reads of those events.
    ApiTokenUpserted {
        token: Box<ApiToken>,
    },
    /// A member joined or their role changed: their open sockets take the
    /// new grant at once.
    MemberUpserted {
        member: Box<Member>,
    },
    /// A member left the team: their sockets for the merchant close.
    MemberRemoved {
        user_id: String,
    },
    InviteUpserted {
        invite: Box<Invite>,
    },
    /// A new entry of the account history (written with the event that
    /// carries it; sent to members who may read its section).
    HistoryEntryAdded {
        entry: Box<HistoryEntry>,
    },
}
