//! The account history: every change to a merchant's data, from the
//! stream's events with who caused them, and the sign-ins, failed sign-ins
//! and two-factor changes of the merchant's members.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::Section;

/// Who caused a history entry.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum HistoryActorKind {
    /// A member, from a signed-in browser.
    User,
    ApiToken,
    Scheduler,
    Import,
    Payer,
    /// The webhook delivery job (pausing an endpoint that kept failing).
    Webhooks,
    /// Written before causes were recorded.
    Unrecorded,
}

/// What happened to the record.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum HistoryAction {
    Created,
    Updated,
    Removed,
    /// Many records of a kind changed at once (a scheduler day, an import).
    BulkChanged,
    /// A record whose state became `revoked` (an API token, an invite).
    Revoked,
    /// The ownership was handed on: the member who became the owner, and
    /// the owner who stayed on with another role, each with their role
    /// before and after.
    OwnershipTransferred,
    SignedIn,
    SignInFailed,
    TwoFactorEnabled,
    TwoFactorDisabled,
}

impl HistoryAction {
    pub const ALL: [HistoryAction; 10] = [
        HistoryAction::Created,
        HistoryAction::Updated,
        HistoryAction::Removed,
        HistoryAction::BulkChanged,
        HistoryAction::Revoked,
        HistoryAction::OwnershipTransferred,
        HistoryAction::SignedIn,
        HistoryAction::SignInFailed,
        HistoryAction::TwoFactorEnabled,
        HistoryAction::TwoFactorDisabled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            HistoryAction::Created => "created",
            HistoryAction::Updated => "updated",
            HistoryAction::Removed => "removed",
            HistoryAction::BulkChanged => "bulk_changed",
            HistoryAction::Revoked => "revoked",
            HistoryAction::OwnershipTransferred => "ownership_transferred",
            HistoryAction::SignedIn => "signed_in",
            HistoryAction::SignInFailed => "sign_in_failed",
            HistoryAction::TwoFactorEnabled => "two_factor_enabled",
            HistoryAction::TwoFactorDisabled => "two_factor_disabled",
        }
    }

    pub fn parse(s: &str) -> Option<HistoryAction> {
        HistoryAction::ALL.into_iter().find(|a| a.as_str() == s)
    }
}

/// One entry of the history list.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    pub id: String,
    #[ts(type = "number")]
    pub at: i64,
    pub actor_kind: HistoryActorKind,
    /// The member's user id, the token's, the import's, the pay page's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub actor_id: Option<String>,
    /// The member's name (as it was then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub actor_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub address: Option<String>,
    /// The browser of the member's session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub user_agent: Option<String>,
    /// `customer`, `payment`, ... or `account` for sign-ins.
    pub record_kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub record_id: Option<String>,
    /// What the merchant calls the record, as it was then: a customer's or
    /// token's name, a payment's customer, a webhook endpoint's URL. None for
    /// settings and records with a blank name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub record_name: Option<String>,
    pub action: HistoryAction,
    /// The names of the fields that changed.
    pub fields: Vec<String>,
    /// The section the record belongs to; none for what every member sees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub section: Option<Section>,
}

/// One field of an entry, before and after, as JSON text.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct HistoryFieldChange {
    pub field: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub before: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub after: Option<String>,
}

/// One entry in full.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct HistoryDetail {
    pub entry: HistoryEntry,
    /// The client-made id of the command behind it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub command_id: Option<String>,
    /// The stream event it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub seq: Option<i64>,
    /// Every field of the record, before and after (changed ones and not).
    pub changes: Vec<HistoryFieldChange>,
}

/// The history list's filters; all optional.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct HistoryFilter {
    /// A member's user id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub person: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub record_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub action: Option<HistoryAction>,
    /// From this time (ms), inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub from: Option<i64>,
    /// Before this time (ms), exclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub to: Option<i64>,
}

/// A member the history can be filtered by.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct HistoryPerson {
    pub user_id: String,
    pub name: String,
}
