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

/// The kinds of record the history keeps entries of (an entry's
/// `recordKind`): one per kind of the merchant's data, the one-per-stream
/// settings and rules, and `account` for sign-ins and two-factor changes.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum HistoryRecordKind {
    Customer,
    BankAccount,
    Card,
    Mandate,
    EMandateRequest,
    Payment,
    Transaction,
    Import,
    PayPage,
    Order,
    WebhookEndpoint,
    ApiToken,
    Member,
    Invite,
    Role,
    BusinessInfo,
    PaymentMethodSettings,
    Payout,
    PayoutSettings,
    TwoFactorPolicy,
    /// The test clock's business date.
    BusinessClock,
    Account,
}

impl HistoryRecordKind {
    pub const ALL: [HistoryRecordKind; 22] = [
        HistoryRecordKind::Customer,
        HistoryRecordKind::BankAccount,
        HistoryRecordKind::Card,
        HistoryRecordKind::Mandate,
        HistoryRecordKind::EMandateRequest,
        HistoryRecordKind::Payment,
        HistoryRecordKind::Transaction,
        HistoryRecordKind::Import,
        HistoryRecordKind::PayPage,
        HistoryRecordKind::Order,
        HistoryRecordKind::WebhookEndpoint,
        HistoryRecordKind::ApiToken,
        HistoryRecordKind::Member,
        HistoryRecordKind::Invite,
        HistoryRecordKind::Role,
        HistoryRecordKind::BusinessInfo,
        HistoryRecordKind::PaymentMethodSettings,
        HistoryRecordKind::Payout,
        HistoryRecordKind::PayoutSettings,
        HistoryRecordKind::TwoFactorPolicy,
        HistoryRecordKind::BusinessClock,
        HistoryRecordKind::Account,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            HistoryRecordKind::Customer => "customer",
            HistoryRecordKind::BankAccount => "bank_account",
            HistoryRecordKind::Card => "card",
            HistoryRecordKind::Mandate => "mandate",
            HistoryRecordKind::EMandateRequest => "e_mandate_request",
            HistoryRecordKind::Payment => "payment",
            HistoryRecordKind::Transaction => "transaction",
            HistoryRecordKind::Import => "import",
            HistoryRecordKind::PayPage => "pay_page",
            HistoryRecordKind::Order => "order",
            HistoryRecordKind::WebhookEndpoint => "webhook_endpoint",
            HistoryRecordKind::ApiToken => "api_token",
            HistoryRecordKind::Member => "member",
            HistoryRecordKind::Invite => "invite",
            HistoryRecordKind::Role => "role",
            HistoryRecordKind::BusinessInfo => "business_info",
            HistoryRecordKind::PaymentMethodSettings => "payment_method_settings",
            HistoryRecordKind::Payout => "payout",
            HistoryRecordKind::PayoutSettings => "payout_settings",
            HistoryRecordKind::TwoFactorPolicy => "two_factor_policy",
            HistoryRecordKind::BusinessClock => "business_clock",
            HistoryRecordKind::Account => "account",
        }
    }

    /// The kinds that are one record per stream (settings and rules): their
    /// record id is their kind, which names nothing a person would know.
    pub fn is_single(self) -> bool {
        matches!(
            self,
            HistoryRecordKind::BusinessInfo
                | HistoryRecordKind::PaymentMethodSettings
                | HistoryRecordKind::PayoutSettings
                | HistoryRecordKind::TwoFactorPolicy
                | HistoryRecordKind::BusinessClock
        )
    }

    pub fn parse(s: &str) -> Option<HistoryRecordKind> {
        HistoryRecordKind::ALL.into_iter().find(|k| k.as_str() == s)
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

/// A record's newest change as a form shows it: who, when, which fields.
/// Only what the record's readers may know: no address or browser.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RecordEdit {
    pub actor_kind: HistoryActorKind,
    /// The member's user id, the token's, the import's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub actor_id: Option<String>,
    /// The member's name (as it was then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub actor_name: Option<String>,
    #[ts(type = "number")]
    pub at: i64,
    pub action: HistoryAction,
    /// The names of the fields that changed.
    pub fields: Vec<String>,
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

/// A person the history can be filtered by: a member, or someone removed
/// from the team whose entries remain.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct HistoryPerson {
    pub user_id: String,
    pub name: String,
    /// No longer a member of the team.
    #[serde(default)]
    pub former: bool,
}

/// A piece of the history's CSV export. The file is made piece by piece,
/// newest entry first: ask again with `nextCursor` until it is absent, and
/// join the pieces' bytes in order.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct HistoryExportPiece {
    pub file_name: String,
    pub content_type: String,
    #[serde(with = "serde_bytes")]
    #[schemars(with = "Vec<u8>")]
    #[ts(type = "Uint8Array")]
    pub data: Vec<u8>,
    /// Entries this piece finished writing.
    pub entries: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub next_cursor: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_record_kind_is_listed_once_and_spelled_as_on_the_wire() {
        for kind in HistoryRecordKind::ALL {
            let wire = serde_json::to_value(kind).ok();
            assert_eq!(wire, Some(serde_json::json!(kind.as_str())), "{kind:?}");
            assert_eq!(HistoryRecordKind::parse(kind.as_str()), Some(kind));
            let listed = HistoryRecordKind::ALL.iter().filter(|k| **k == kind);
            assert_eq!(listed.count(), 1, "{kind:?}");
        }
    }
}
