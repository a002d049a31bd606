//! Electronic mandate requests: the merchant asks a payer to sign a debit
//! order mandate themselves, through a link the product mails them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{Interval, Language, Mode, PaymentMethod};

/// Where a request stands, as the merchant's list shows it.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EMandateState {
    /// Mailed (or copied), not yet opened.
    Sent,
    /// The payer opened the link.
    Opened,
    /// The payer signed and the bank approved: the mandate exists.
    Completed,
    /// The payer's bank declined (or the payer did).
    Declined,
    /// The payer's bank heard nothing from the payer within its window.
    NoReply,
    /// Past its last day without being completed.
    Expired,
    /// The merchant withdrew it.
    Cancelled,
}

impl EMandateState {
    pub const ALL: [EMandateState; 7] = [
        EMandateState::Sent,
        EMandateState::Opened,
        EMandateState::Completed,
        EMandateState::Declined,
        EMandateState::NoReply,
        EMandateState::Expired,
        EMandateState::Cancelled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EMandateState::Sent => "sent",
            EMandateState::Opened => "opened",
            EMandateState::Completed => "completed",
            EMandateState::Declined => "declined",
            EMandateState::NoReply => "no_reply",
            EMandateState::Expired => "expired",
            EMandateState::Cancelled => "cancelled",
        }
    }

    pub fn parse(value: &str) -> Option<EMandateState> {
        EMandateState::ALL.into_iter().find(|s| s.as_str() == value)
    }

    /// The payer may still act on it (and the merchant resend or cancel it).
    pub fn is_open(self) -> bool {
        matches!(self, EMandateState::Sent | EMandateState::Opened)
    }
}

/// A term of the mandate the payer may change before signing.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EMandateChangeable {
    /// Any amount up to the maximum.
    Amount,
    /// A later first collection date.
    StartDate,
}

/// What the merchant fills in to request a mandate.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct EMandateRequestInput {
    /// An existing customer; without one, `name`, `email` and `cellphone`
    /// say who the payer is and the customer is made when they sign.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub customer_id: Option<String>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub cellphone: String,
    /// The language of the mail and of the payer's pages.
    pub language: Language,
    /// DebiCheck or Registered Mandate.
    pub method: PaymentMethod,
    #[ts(type = "number")]
    pub amount_cents: i64,
    /// The most one collection may take (DebiCheck: at most 1.5 times the amount).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub max_cents: Option<i64>,
    pub interval: Interval,
    /// The first collection, `YYYY-MM-DD`, after today.
    pub start_date: String,
    #[serde(default)]
    pub payer_may_change: Vec<EMandateChangeable>,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct EMandateRequest {
    pub id: String,
    pub mode: Mode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub customer_id: Option<String>,
    pub name: String,
    pub email: String,
    pub cellphone: String,
    pub language: Language,
    pub method: PaymentMethod,
    #[ts(type = "number")]
    pub amount_cents: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub max_cents: Option<i64>,
    pub interval: Interval,
    pub start_date: String,
    pub payer_may_change: Vec<EMandateChangeable>,
    pub state: EMandateState,
    /// The payer's link, a path on this server (`/mandate/…`).
    pub link: String,
    /// The last day the link works, `YYYY-MM-DD`.
    pub expires_on: String,
    /// How many times it was mailed.
    pub sends: u32,
    /// The mandate it made, once completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mandate_id: Option<String>,
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub updated_at: i64,
}
