//! Every read a client can ask for: one `Query` per kind of question.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{
    CustomerStatus, HistoryFilter, HistoryRecordKind, ImportTemplate, InsightBucket, Language,
    MandateFilter, OrderFilter, PaymentFilter, PaymentKind, PaymentMethod, SortOrder,
    StatementFormat, TransactionFilter,
};

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
    /// The insights screen's figures between two business dates
    /// (inclusive, at most 366 days), optionally for one method.
    GetInsights {
        from: String,
        to: String,
        #[serde(default)]
        bucket: InsightBucket,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        method: Option<PaymentMethod>,
    },
    /// The balance the ledger keeps: available and pending.
    GetBalance {},
    /// The settlement account, the payout schedule and any hold.
    GetPayoutSettings {},
    /// Newest first.
    ListPayouts {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        limit: Option<u32>,
    },
    /// A payout with the ledger lines it settles.
    GetPayout {
        payout_id: String,
    },
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
    /// The statement of the stream's money for the business dates `from` to
    /// `to` (`YYYY-MM-DD`, inclusive, at most 366 days), with its entries
    /// from `offset` (up to 200 a reply).
    GetStatement {
        from: String,
        to: String,
        #[serde(default)]
        offset: u32,
    },
    /// The same statement as a CSV or xlsx file in `language`, piece by piece.
    DownloadStatement {
        from: String,
        to: String,
        #[serde(default)]
        format: StatementFormat,
        #[serde(default)]
        language: Language,
        #[serde(default)]
        offset: u32,
    },
    /// The stream's API tokens (the socket's mode), newest first.
    ListApiTokens {},
    GetTeam {},
    /// The preset roles and the merchant's own, with what each grants.
    ListRoles {},
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
    /// Every entry the filter matches, with each field's value before and
    /// after, as a CSV file in `language`, piece by piece (`HistoryExport`).
    /// `cursor` is the previous piece's `nextCursor`.
    DownloadHistory {
        #[serde(default)]
        filter: HistoryFilter,
        #[serde(default)]
        language: Language,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cursor: Option<String>,
    },
    /// Where a record the socket's stream does not hold is, for a link that
    /// named another business or mode (or none): answered only when it is
    /// in the other mode of this merchant or in another merchant whose team
    /// the user is on; otherwise `not_found`, as for an id that exists
    /// nowhere.
    LocateRecord {
        record_id: String,
    },
    /// The stream's business date (the test clock's in test mode), for
    /// every member: screens that open on "today" or "this month" need it
    /// whatever the role.
    GetBusinessDate {},
    /// Who last changed a record and which of its fields: what an open form
    /// shows when a teammate saves the record being edited. `record_id` is
    /// the record's id, or its kind for settings (`business_info`,
    /// `payment_method_settings`). Needs read access to the record's section; `not_found` when its history holds
    /// nothing the member may read.
    GetLastEdit {
        record_kind: HistoryRecordKind,
        record_id: String,
    },
    /// The search box: customers, payments, mandates, transactions, orders
    /// and payouts of the stream whose name, reference, e-mail address, ID
    /// number or account number holds `text` (case-insensitive; at least
    /// 2 characters once trimmed, at most 100). Only the kinds the member
    /// may read are searched; a few hits of each, newest first.
    Search {
        text: String,
    },
}
