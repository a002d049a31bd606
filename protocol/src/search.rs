//! The one search box: what it finds, grouped by kind of record.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::PaymentKind;

/// The kinds of record the search box looks through, in the order the
/// groups are shown.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum SearchKind {
    Customer,
    Payment,
    Mandate,
    Transaction,
    Order,
    Payout,
}

impl SearchKind {
    pub const ALL: [SearchKind; 6] = [
        SearchKind::Customer,
        SearchKind::Payment,
        SearchKind::Mandate,
        SearchKind::Transaction,
        SearchKind::Order,
        SearchKind::Payout,
    ];
}

/// One record found: enough to show it in a line and open its screen.
/// The texts are the record's own data; the app adds the words.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    pub kind: SearchKind,
    pub id: String,
    /// Who the record is of: the customer's, payer's or account holder's name.
    pub title: String,
    /// The record's reference, or the customer's e-mail address.
    pub detail: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub amount_cents: Option<i64>,
    /// The last digits of the bank account the record is paid from or to
    /// (for a customer, the account the search matched); never the whole
    /// number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub account_last4: Option<String>,
    /// A payment's kind, which names its screen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub payment_kind: Option<PaymentKind>,
}

/// The hits of one kind, newest first. A kind the member may not read, or
/// with nothing found, has no group.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SearchGroup {
    pub kind: SearchKind,
    pub hits: Vec<SearchHit>,
}

/// The fewest characters a search is made for, once trimmed: shorter text
/// would match most of a business's records.
pub const SEARCH_MIN_CHARS: usize = 2;
/// The most characters a search may hold.
pub const SEARCH_MAX_CHARS: usize = 100;
