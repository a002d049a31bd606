//! The merchant's money: the balance kept by the ledger.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A merchant stream's balance on its business date: the sum of its ledger,
/// split into what can be paid out now and what is still inside its
/// method's settlement delay.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Balance {
    /// The merchant's business date: the test clock's in test mode.
    pub today: String,
    #[ts(type = "number")]
    pub available_cents: i64,
    #[ts(type = "number")]
    pub pending_cents: i64,
}

/// The files a statement downloads as.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum StatementFormat {
    #[default]
    Csv,
    Xlsx,
}

/// A statement of the stream's money for a period of business dates: the
/// balance before it, what moved in it by kind, the balance after it
/// (opening plus every ledger entry of the period) and the entries.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Statement {
    pub from: String,
    pub to: String,
    /// The sum of every entry before `from`.
    #[ts(type = "number")]
    pub opening_balance_cents: i64,
    /// Collections by method, methods with none left out.
    pub collected: Vec<StatementMethodTotal>,
    /// Processing fees charged (negative).
    #[ts(type = "number")]
    pub fees_cents: i64,
    /// Fees given back with money taken back or refunded (positive).
    #[ts(type = "number")]
    pub fee_returns_cents: i64,
    #[ts(type = "number")]
    pub refunds_cents: i64,
    /// Unpaids that arrived after a debit was paid.
    #[ts(type = "number")]
    pub reversals_cents: i64,
    #[ts(type = "number")]
    pub disputes_cents: i64,
    /// Payouts by ledger kind (`payout`, `payout_fee`, `payout_return`).
    pub payouts: Vec<StatementKindTotal>,
    /// Entries of any other kind, so the sections always add up.
    pub other: Vec<StatementKindTotal>,
    /// The opening balance plus every entry of the period.
    #[ts(type = "number")]
    pub closing_balance_cents: i64,
    /// The period's entries, oldest first, from the query's offset.
    pub lines: Vec<StatementLine>,
    /// How many entries the period has in all.
    pub lines_total: u32,
    /// Ask again from here for the next entries; absent at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub next_offset: Option<u32>,
    /// Whose statement it is, as the business's details say.
    #[serde(default)]
    pub business: StatementBusiness,
}

/// The business a statement is of, from its details: what an accountant or
/// the tax authority looks for on it.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct StatementBusiness {
    pub legal_name: String,
    pub registration_number: String,
    pub vat_number: String,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct StatementMethodTotal {
    pub method: crate::PaymentMethod,
    pub count: u32,
    #[ts(type = "number")]
    pub amount_cents: i64,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct StatementKindTotal {
    /// The ledger kind (`payout`, `fee`, ...).
    pub kind: String,
    #[ts(type = "number")]
    pub amount_cents: i64,
}

/// One ledger entry of a statement.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct StatementLine {
    pub id: String,
    /// The business date of the movement.
    pub date: String,
    /// The ledger kind (`collection`, `fee`, `refund`, `payout`, ...).
    pub kind: String,
    /// The collection's method; none for a payout's entries (`payout`,
    /// `payout_fee`, `payout_return`), which are credits the merchant sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub method: Option<crate::PaymentMethod>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub transaction_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub order_id: Option<String>,
    /// The customer's or payer's name, when the entry has one.
    pub name: String,
    pub reference: String,
    #[ts(type = "number")]
    pub amount_cents: i64,
}
