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
