use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A webhook endpoint as its page shows it (never its secret).
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEndpoint {
    pub id: String,
    pub url: String,
    pub description: String,
    pub event_types: Vec<String>,
    pub enabled: bool,
    /// Set when the system paused it (`deliveries_failed`), not a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub disabled_reason: Option<String>,
    /// Until when the secret before the last roll still signs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub previous_secret_until: Option<i64>,
    #[ts(type = "number")]
    pub created_at: i64,
    /// When it last changed (equal to `created_at` until then).
    #[ts(type = "number")]
    pub updated_at: i64,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryState {
    Pending,
    Delivered,
    Failed,
}

/// One delivery of the endpoint page's log, with its last attempt.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDelivery {
    pub id: String,
    pub endpoint_id: String,
    pub event_id: String,
    pub event_type: String,
    pub state: DeliveryState,
    #[ts(type = "number")]
    pub attempts: i64,
    #[ts(type = "number")]
    pub next_attempt_at: i64,
    /// The body as sent.
    pub payload: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub last_attempt_at: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub last_status: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub last_duration_ms: Option<i64>,
    /// Why there was no answer (timed out, refused address, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub last_error: Option<String>,
    /// The headers the last attempt sent, one `name: value` a line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub last_request_headers: Option<String>,
    /// The start of the receiver's answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub last_response: Option<String>,
    #[ts(type = "number")]
    pub created_at: i64,
}

/// Whether an API token still opens the API.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ApiTokenState {
    Active,
    /// Past its expiry.
    Expired,
    Revoked,
}

/// An API token as the tokens screen lists it: never its secret, only the
/// start of it (`prefix`), enough to recognise it in a server's settings.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiToken {
    pub id: String,
    pub name: String,
    pub mode: crate::Mode,
    /// E.g. `pdk_live_4fT9`: the secret's first characters.
    pub prefix: String,
    /// What the token may do, section by section, like a custom role.
    pub permissions: crate::Permissions,
    /// The member who made it, and their name.
    pub created_by_id: String,
    pub created_by_name: String,
    #[ts(type = "number")]
    pub created_at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub last_used_at: Option<i64>,
    /// The client address of that last use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub last_used_from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub expires_at: Option<i64>,
    /// Client addresses (an IP address or a CIDR range) the token is
    /// accepted from; empty: any.
    pub allowed_addresses: Vec<String>,
    pub state: ApiTokenState,
    /// Until when the secret before the last roll still opens the API.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub previous_secret_until: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub revoked_at: Option<i64>,
}
