//! The insights screen's figures: collections, outcomes and ratios per
//! period bucket, unpaid reasons, and the scheduled collections ahead.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::PaymentMethod;

/// How the insights period is cut into buckets.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum InsightBucket {
    #[default]
    Day,
    /// Weeks start on Monday.
    Week,
    /// Calendar months.
    Month,
}

/// Debits the bank settled under one method in a bucket.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct MethodRatios {
    pub method: PaymentMethod,
    pub settled: u32,
    pub unpaid: u32,
    pub disputed: u32,
    pub unpaid_ratio_bp: u32,
    pub dispute_ratio_bp: u32,
}

/// One bucket of the period, by the date the bank settled each debit.
/// Collected counts paid and disputed debits (their money came in until a
/// reversal); unpaid counts unpaid and rejected ones; disputed counts
/// disputes and reversals.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct InsightPoint {
    /// The bucket's first day (`YYYY-MM-DD`).
    pub start: String,
    #[ts(type = "number")]
    pub collected_cents: i64,
    pub collected_count: u32,
    /// Debit orders settled (paid, unpaid or disputed); the unpaid and
    /// dispute ratios are of these, as the banks' thresholds are.
    pub settled: u32,
    pub paid: u32,
    pub unpaid: u32,
    pub disputed: u32,
    /// Payments of every method settled (debit orders, card and pay-by-bank
    /// charges, paid or not), which the success rate is of.
    pub payments_settled: u32,
    pub payments_paid: u32,
    /// Of `payments_settled`; none in a bucket where nothing settled, so a
    /// quiet day is a gap, not a 0 % day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub success_rate_bp: Option<u32>,
    /// Of `settled`; none in a bucket where no debit order settled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub unpaid_ratio_bp: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub dispute_ratio_bp: Option<u32>,
    /// The methods that settled debits in the bucket.
    pub by_method: Vec<MethodRatios>,
}

/// Unpaid debits of the period with one bank reason code; `rejected` for
/// debits the bank rejected before processing.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UnpaidReason {
    pub code: String,
    pub count: u32,
    #[ts(type = "number")]
    pub cents: i64,
}

/// The collections the schedule will present on one business day.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ForecastDay {
    pub date: String,
    pub count: u32,
    #[ts(type = "number")]
    pub cents: i64,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Insights {
    /// The merchant's business date: the test clock's in test mode.
    pub today: String,
    pub from: String,
    pub to: String,
    pub bucket: InsightBucket,
    /// Every bucket of the period, empty ones too, oldest first.
    pub points: Vec<InsightPoint>,
    /// Most frequent first.
    pub unpaid_reasons: Vec<UnpaidReason>,
    pub unpaid_threshold_bp: u32,
    pub dispute_threshold_bp: u32,
    /// Today and the 29 days after it that have collections scheduled.
    pub forecast: Vec<ForecastDay>,
}
