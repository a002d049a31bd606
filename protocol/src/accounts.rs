use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::UserView;

/// The languages of the interface and of mail.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    #[default]
    En,
    Afr,
}

impl Language {
    pub fn as_str(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Afr => "afr",
        }
    }

    /// The BCP 47 tag, for `<html lang>` and `Content-Language`: `afr` is
    /// the ISO 639-2 code, which those do not know; Afrikaans is `af` there.
    pub fn tag(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Afr => "af",
        }
    }

    pub fn parse(value: &str) -> Option<Language> {
        match value {
            "en" => Some(Language::En),
            "afr" => Some(Language::Afr),
            _ => None,
        }
    }
}

/// The signed-in user's own account, as the profile screen shows it.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub user: UserView,
    pub email_verified: bool,
    /// A new address waiting for its verification link to be followed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pending_email: Option<String>,
    pub language: Language,
    pub two_factor_enabled: bool,
    #[ts(type = "number")]
    pub backup_codes_left: u32,
    /// The open merchant requires two-factor sign-in of every member.
    pub two_factor_required: bool,
}

/// One signed-in browser of the user.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SessionInfo {
    pub id: String,
    pub user_agent: String,
    pub address: String,
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub last_seen_at: i64,
    /// The session of the browser asking.
    pub current: bool,
}

/// The merchant's business details.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct BusinessInfo {
    pub legal_name: String,
    pub trading_name: String,
    pub registration_number: String,
    pub vat_number: String,
    pub industry: String,
    pub physical_address: String,
    pub contact_person: String,
    pub support_email: String,
    pub support_phone: String,
    /// The creditor abbreviated name on payers' bank statements: at most 10 characters.
    pub statement_name: String,
    /// Counts the saves of these details (0 before the first): an edit
    /// sends it back as its `base_version`; the server ignores it on the
    /// way in. Not a stream seq, as test and live mode share the details.
    #[serde(default)]
    #[ts(type = "number")]
    pub version: u64,
}
