//! Money out: the merchant's settlement account, the payout schedule and
//! payouts (to the merchant's own account or to a customer).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{AccountType, BankId};

/// Where a payout's money goes.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PayoutKind {
    /// The merchant's own settlement account.
    Settlement,
    /// A customer's bank account (refunding a debit order, a disbursement).
    Customer,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PayoutStatus {
    /// Waiting for its business day (or for a settlement account hold).
    Pending,
    /// Sent to the bank; paid or failed the next business day.
    Submitted,
    Paid,
    /// The bank refused it; its money is back in the balance.
    Failed,
}

/// One step of a payout's life.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PayoutStep {
    pub status: PayoutStatus,
    /// The business day of the step.
    pub date: String,
    #[ts(type = "number")]
    pub at: i64,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Payout {
    pub id: String,
    pub kind: PayoutKind,
    pub status: PayoutStatus,
    /// What leaves the balance: the payout and its fee.
    #[ts(type = "number")]
    pub amount_cents: i64,
    #[ts(type = "number")]
    pub fee_cents: i64,
    /// What reaches the bank account.
    #[ts(type = "number")]
    pub net_cents: i64,
    /// Made by the payout schedule rather than by a member.
    pub automatic: bool,
    pub holder_name: String,
    /// The last four digits of the receiving account.
    pub account_last4: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub customer_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bank_account_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub transaction_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    /// The bank's reason for a failed payout (a stable code the app translates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub failure: Option<String>,
    /// The business day it was asked for.
    pub requested_on: String,
    pub history: Vec<PayoutStep>,
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub updated_at: i64,
}

/// A ledger entry a payout settles, or the part of one it settles.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PayoutLine {
    pub entry_id: String,
    /// The ledger entry's kind (`collection`, `fee`, `refund`, ...).
    pub kind: String,
    pub entry_date: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub transaction_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub order_id: Option<String>,
    /// The part of the entry this payout settles (signed).
    #[ts(type = "number")]
    pub amount_cents: i64,
}

/// A payout with the lines it settles; they add up to its amount.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PayoutDetail {
    pub payout: Payout,
    pub lines: Vec<PayoutLine>,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum PayoutInterval {
    #[default]
    Off,
    /// Every business day.
    Daily,
    /// On a weekday (1 Monday .. 5 Friday).
    Weekly,
    /// On a day of the month (1..28), or the next business day.
    Monthly,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct PayoutSchedule {
    pub interval: PayoutInterval,
    /// For weekly payouts: 1 (Monday) to 5 (Friday).
    #[serde(default)]
    pub weekday: u8,
    /// For monthly payouts: 1 to 28.
    #[serde(default)]
    pub day_of_month: u8,
    /// An automatic payout waits until the available balance reaches this.
    #[ts(type = "number")]
    pub minimum_cents: i64,
}

/// The merchant's settlement account as checked with the bank.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SettlementAccount {
    pub bank: BankId,
    pub branch_code: String,
    pub account_type: AccountType,
    pub holder_name: String,
    /// The last four digits only: the full number is not sent back.
    pub account_last4: String,
    /// When the bank's account verification confirmed it.
    #[ts(type = "number")]
    pub verified_at: i64,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PayoutSettings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub account: Option<SettlementAccount>,
    pub schedule: PayoutSchedule,
    /// While payouts to a settlement account that changed less than 24
    /// hours ago wait: until when (ms, on the stream's clock, as every
    /// business time: in test mode the test clock's days count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub held_until: Option<i64>,
    /// How far the stream's clock runs ahead of the wall clock (ms): the
    /// test clock's days in test mode, 0 in live mode. `held_until` less
    /// this is when the hold ends by the wall clock.
    #[serde(default)]
    #[ts(type = "number")]
    pub clock_ahead_ms: i64,
    /// The fee of one payout, in cents.
    #[ts(type = "number")]
    pub fee_cents: i64,
}
