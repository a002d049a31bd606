//! What the server answers a command or query with.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{
    ApiToken, Balance, BankAccount, BusinessInfo, Card, Customer, Dashboard, EMandateRequest,
    FileChunk, HistoryDetail, HistoryEntry, HistoryExportPiece, HistoryPerson, Import, ImportIssue,
    ImportPreview, Insights, Mandate, Order, PayPage, Payment, PaymentMethodSettings, Payout,
    PayoutDetail, PayoutSettings, Profile, RecordEdit, RecordPlace, RoleList, SearchGroup,
    SessionInfo, Statement, Team, Transaction, WebhookDelivery, WebhookEndpoint,
};

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
    Insights {
        insights: Box<Insights>,
    },
    Balance {
        balance: Box<Balance>,
    },
    Statement {
        statement: Box<Statement>,
    },
    PayoutSettings {
        settings: Box<PayoutSettings>,
    },
    Payouts {
        payouts: Vec<Payout>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        next_cursor: Option<String>,
    },
    Payout {
        detail: Box<PayoutDetail>,
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
    HistoryExport {
        piece: Box<HistoryExportPiece>,
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
    Roles {
        roles: Box<RoleList>,
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
    /// Where `LocateRecord` found the record.
    RecordLocation {
        place: RecordPlace,
    },
    BusinessDate {
        /// `YYYY-MM-DD`.
        today: String,
    },
    /// The record's newest change.
    LastEdit {
        edit: RecordEdit,
    },
    /// What `Search` found, one group per kind, in `SearchKind::ALL` order.
    SearchResults {
        groups: Vec<SearchGroup>,
    },
}
