use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{Permissions, Role};

/// A member of the merchant's team as the team pages show them.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    pub user_id: String,
    pub name: String,
    pub email: String,
    pub role: Role,
    /// The custom role's name, when `role` is `Custom`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub role_name: Option<String>,
    /// The custom role's id, when `role` is `Custom`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub role_id: Option<String>,
    /// What the role grants, section by section.
    pub permissions: Permissions,
    /// Whether the member signs in with a second factor.
    pub two_factor: bool,
    #[ts(type = "number")]
    pub joined_at: i64,
    /// When the member last used the dashboard (any of their sessions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub last_active_at: Option<i64>,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum InviteStatus {
    Pending,
    Accepted,
    Revoked,
}

/// An invitation to join the team, as the team page lists it (never its token).
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Invite {
    pub id: String,
    pub email: String,
    pub role: Role,
    /// The custom role's id and name, when `role` is `Custom`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub role_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub role_name: Option<String>,
    pub status: InviteStatus,
    pub invited_by: String,
    pub invited_by_name: String,
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub expires_at: i64,
}

/// The team page: its members and pending invites, and the merchant's
/// two-factor policy (each member's status is shown against it).
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Team {
    pub members: Vec<Member>,
    pub invites: Vec<Invite>,
    pub two_factor_required: bool,
}

/// What the invite page shows before anyone accepts (from the token alone).
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct InviteDetails {
    pub merchant_name: String,
    pub email: String,
    pub role: Role,
    /// The custom role's name, when `role` is `Custom`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub role_name: Option<String>,
    pub invited_by_name: String,
    #[ts(type = "number")]
    pub expires_at: i64,
    /// The invited address has an account already: the page offers to sign
    /// in and accept rather than to sign up.
    pub has_account: bool,
}

/// A role the merchant defined itself: a name and a matrix of sections ×
/// access. Its members have `role: Custom` and its id.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CustomRole {
    pub id: String,
    pub name: String,
    pub grants: Permissions,
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub updated_at: i64,
}

/// A preset role with what it grants.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PresetRole {
    pub role: Role,
    pub grants: Permissions,
}

/// Every role of the merchant: the presets, then its own, by name.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RoleList {
    pub presets: Vec<PresetRole>,
    pub custom: Vec<CustomRole>,
}
