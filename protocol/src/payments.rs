use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{BankId, CardBrand, MandateInput, Mode, PayFailure, PaymentMethod, UnpaidFollowUp};

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum PaymentKind {
    Once,
    Recurring,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Interval {
    Weekly,
    Fortnightly,
    Monthly,
    Quarterly,
    Biannually,
    Annually,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PaymentStatus {
    Pending,
    Running,
    Paused,
    Stopped,
    Cancelled,
    Completed,
}

/// The mandate a new payment collects under.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum MandateChoice {
    Existing { mandate_id: String },
    New { input: Box<MandateInput> },
}

/// What the create-payment form (and each import row) sends. Dates are
/// `YYYY-MM-DD`; amounts cents.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PaymentInput {
    pub customer_id: String,
    /// Required, but optional on the wire: a payment without it is refused
    /// with a `required` field error among its other mistakes, so that a
    /// form sent before every choice is made hears of them all at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mandate: Option<MandateChoice>,
    pub kind: PaymentKind,
    /// Required, but optional on the wire, as `mandate` is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub amount_cents: Option<i64>,
    /// Once-off only: the date to process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub date_to_process: Option<String>,
    /// Once-off only: letters, digits and dashes, up to 30.
    pub transaction_reference: String,
    /// Recurring only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub start_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub end_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub interval: Option<Interval>,
    /// 1-31 (31 = the month's last day); weekly 1-7 from Monday; fortnightly 1-14.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub day_to_process: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub first_collection_cents: Option<i64>,
    /// EFT debit orders: start collecting at once, or wait for the merchant.
    pub start_running: bool,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Payment {
    pub id: String,
    pub mode: Mode,
    pub kind: PaymentKind,
    pub customer_id: String,
    pub customer_name: String,
    pub mandate_id: String,
    pub method: PaymentMethod,
    pub status: PaymentStatus,
    /// Why the system stopped it: an unpaid code, or `mandate_ended`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stop_reason: Option<String>,
    #[ts(type = "number")]
    pub amount_cents: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub first_collection_cents: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub date_to_process: Option<String>,
    pub transaction_reference: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub start_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub end_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub interval: Option<Interval>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub day_to_process: Option<u8>,
    /// The business day of the next debit, while one is due.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub next_action_date: Option<String>,
    /// An unpaid 02 waiting to go to the bank again: the business day it
    /// is presented. Never a day with another debit of the same mandate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub representation_date: Option<String>,
    /// The amount presented again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub representation_cents: Option<i64>,
    /// The day the re-presentation was due (its next mandated date), when
    /// the mandate already collects that day and it moved to the next
    /// business day with no other debit, so the payer is not debited twice
    /// on one day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub representation_moved_from: Option<String>,
    #[ts(type = "number")]
    pub collected_cents: i64,
    /// Debits raised so far, retries included.
    pub attempts: u32,
    /// Insufficient-funds unpaids in a row, which limit re-runs.
    pub consecutive_unpaids: u32,
    /// The import that created it, and its row in the spreadsheet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub import_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub import_row: Option<u32>,
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub updated_at: i64,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PaymentAction {
    /// Start an EFT payment created without running.
    Start,
    Pause,
    Resume,
    Cancel,
    /// Re-present the last debit after an unpaid whose code allows it.
    Retry,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TransactionStatus {
    Pending,
    SentToBank,
    AcceptedByBank,
    RejectedByBank,
    InTracking,
    Paid,
    Unpaid,
    Disputed,
    Reversed,
    Cancelled,
}

/// One step a debit went through, on the business date it happened.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TransactionStep {
    pub status: TransactionStatus,
    pub date: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub unpaid_code: Option<String>,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Transaction {
    pub id: String,
    pub mode: Mode,
    /// The debit order's schedule; none for a pay-page or card-on-file charge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub payment_id: Option<String>,
    pub payment_kind: PaymentKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mandate_id: Option<String>,
    /// The commerce order of a pay-page or card-on-file charge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub order_id: Option<String>,
    /// None for a pay-page payer who is not kept as a customer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub customer_id: Option<String>,
    /// The customer's name, or the name the payer gave.
    pub customer_name: String,
    pub method: PaymentMethod,
    /// The payer's bank; none for a card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bank: Option<BankId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub card_brand: Option<CardBrand>,
    /// The bank account's last digits, or a card's last four.
    pub account_last_digits: String,
    /// Why a card or pay-by-bank payment did not go through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub failure: Option<PayFailure>,
    pub reference: String,
    #[ts(type = "number")]
    pub amount_cents: i64,
    /// The business day the bank debits.
    pub action_date: String,
    pub status: TransactionStatus,
    /// The bank's reason when unpaid, disputed or reversed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub unpaid_code: Option<String>,
    /// 1 for a first presentation, more for re-runs after an unpaid 02.
    pub attempt: u32,
    pub history: Vec<TransactionStep>,
    /// The processing fee the ledger charges when it is paid (the method's
    /// price of the amount; given back if the bank takes the money back).
    #[serde(default)]
    #[ts(type = "number")]
    pub fee_cents: i64,
    /// The amount less the fee.
    #[serde(default)]
    #[ts(type = "number")]
    pub net_cents: i64,
    /// What the merchant did about it, when it came back unpaid.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<UnpaidFollowUp>>")]
    pub follow_ups: Vec<UnpaidFollowUp>,
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub updated_at: i64,
}

/// How a list is ordered; the cursor of a page belongs to its order.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum SortOrder {
    #[default]
    Newest,
    Oldest,
    AmountHigh,
    AmountLow,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct PaymentFilter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<PaymentStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub method: Option<PaymentMethod>,
    /// Created on or after / on or before, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub to: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub min_cents: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub max_cents: Option<i64>,
    /// Reference, name, e-mail, ID number or last digits of the account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub search: Option<String>,
    /// Only the payments one import created.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub import_id: Option<String>,
    /// Only one customer's (the customer page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub customer_id: Option<String>,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct TransactionFilter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<TransactionStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub method: Option<PaymentMethod>,
    /// Action date on or after / on or before, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub to: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub min_cents: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub max_cents: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub search: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub payment_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub order_id: Option<String>,
    /// Only one customer's (the customer page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub customer_id: Option<String>,
}

/// A debit the schedule will raise.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UpcomingCollection {
    pub payment_id: String,
    pub customer_name: String,
    pub method: PaymentMethod,
    #[ts(type = "number")]
    pub amount_cents: i64,
    pub action_date: String,
    /// An unpaid 02 presented again, rather than the schedule's own debit.
    #[serde(default)]
    pub representation: bool,
}

/// The home screen's figures. Ratios are basis points (1 % = 100) over the
/// debits the bank has settled this month; thresholds: unpaids 10 %, disputes 0.5 %.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Dashboard {
    /// The merchant's business date: the test clock's in test mode.
    pub today: String,
    #[ts(type = "number")]
    pub collected_today_cents: i64,
    #[ts(type = "number")]
    pub collected_month_cents: i64,
    pub settled_this_month: u32,
    pub success_rate_bp: u32,
    pub unpaid_ratio_bp: u32,
    pub dispute_ratio_bp: u32,
    pub unpaid_threshold_bp: u32,
    pub dispute_threshold_bp: u32,
    pub upcoming: Vec<UpcomingCollection>,
    /// How many more scheduled debits there are than `upcoming` lists.
    pub upcoming_more: u32,
    /// The latest changed debits, newest first.
    pub recent: Vec<Transaction>,
}

/// How far a test clock moves in one step.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ClockStep {
    Day,
    Week,
    Month,
}
