use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Each merchant keeps live and test data apart, like the well-known gateways.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Live,
    Test,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Live => "live",
            Mode::Test => "test",
        }
    }

    pub fn parse(value: &str) -> Option<Mode> {
        match value {
            "live" => Some(Mode::Live),
            "test" => Some(Mode::Test),
            _ => None,
        }
    }
}

/// A member's role in a merchant: one of the preset roles, or a role the
/// merchant defined itself (`Custom`, whose matrix the membership names).
/// What each may do is `paydesk::domain::permissions`.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Owner,
    Admin,
    Operations,
    Finance,
    Developer,
    Support,
    Viewer,
    Custom,
}

impl Role {
    pub const PRESETS: [Role; 7] = [
        Role::Owner,
        Role::Admin,
        Role::Operations,
        Role::Finance,
        Role::Developer,
        Role::Support,
        Role::Viewer,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Admin => "admin",
            Role::Operations => "operations",
            Role::Finance => "finance",
            Role::Developer => "developer",
            Role::Support => "support",
            Role::Viewer => "viewer",
            Role::Custom => "custom",
        }
    }

    pub fn parse(value: &str) -> Option<Role> {
        match value {
            "owner" => Some(Role::Owner),
            "admin" => Some(Role::Admin),
            "operations" => Some(Role::Operations),
            "finance" => Some(Role::Finance),
            "developer" => Some(Role::Developer),
            "support" => Some(Role::Support),
            "viewer" => Some(Role::Viewer),
            "custom" => Some(Role::Custom),
            _ => None,
        }
    }
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    pub id: String,
    pub name: String,
    pub email: String,
}

/// A merchant the signed-in user belongs to, with the user's role in it.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct MerchantView {
    pub id: String,
    pub name: String,
    pub role: Role,
    /// The custom role's name, when `role` is `Custom`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub role_name: Option<String>,
    /// What the role may do, section by section: the web app hides the rest.
    pub permissions: crate::Permissions,
}

/// Where a record is kept: a merchant whose team the user is on (its name
/// as they know it from their list of merchants), and the mode.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RecordPlace {
    pub merchant_id: String,
    pub merchant_name: String,
    pub mode: Mode,
}

/// Who of the team is online (one entry per person, whatever their number
/// of tabs), what their tabs show and which forms they have open.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PresenceMember {
    pub user_id: String,
    pub name: String,
    /// The paths their tabs show (e.g. `/customers/cus_...`), one per tab,
    /// sorted; a path twice means two tabs on it. Capped at a few.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub viewing: Vec<String>,
    /// The records (paths) whose form one of their tabs has open.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub editing: Vec<String>,
}
