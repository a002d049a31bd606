use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::Mode;

/// Identity document kinds, as in the import templates' ID Type column.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum IdType {
    SouthAfricanId,
    PassportNumber,
    TemporaryResidence,
    CompanyRegistrationNumber,
}

impl IdType {
    pub fn as_str(self) -> &'static str {
        match self {
            IdType::SouthAfricanId => "south_african_id",
            IdType::PassportNumber => "passport_number",
            IdType::TemporaryResidence => "temporary_residence",
            IdType::CompanyRegistrationNumber => "company_registration_number",
        }
    }

    pub fn parse(value: &str) -> Option<IdType> {
        match value {
            "south_african_id" => Some(IdType::SouthAfricanId),
            "passport_number" => Some(IdType::PassportNumber),
            "temporary_residence" => Some(IdType::TemporaryResidence),
            "company_registration_number" => Some(IdType::CompanyRegistrationNumber),
            _ => None,
        }
    }
}

/// What a user types to create or edit a customer. Optional text fields are
/// empty strings when left blank; a machine API client may leave them out.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct CustomerInput {
    pub name: String,
    pub email: String,
    #[serde(default)]
    pub cellphone: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id_type: Option<IdType>,
    #[serde(default)]
    pub id_number: String,
    #[serde(default)]
    pub address_line1: String,
    #[serde(default)]
    pub address_line2: String,
    #[serde(default)]
    pub city: String,
    #[serde(default)]
    pub postal_code: String,
    /// The merchant's own reference for the customer; unique per merchant when given.
    #[serde(default)]
    pub reference: String,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Customer {
    pub id: String,
    pub mode: Mode,
    pub name: String,
    pub email: String,
    pub cellphone: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id_type: Option<IdType>,
    pub id_number: String,
    pub address_line1: String,
    pub address_line2: String,
    pub city: String,
    pub postal_code: String,
    pub reference: String,
    pub archived: bool,
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub updated_at: i64,
    /// The stream seq of the event that last changed it: an edit sends it
    /// back as its `base_version`.
    #[serde(default)]
    #[ts(type = "number")]
    pub version: u64,
}

/// Which customers a list shows.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum CustomerStatus {
    #[default]
    Active,
    Archived,
    All,
}
