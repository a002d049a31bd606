use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The banks a South African debit order can be drawn on (DOMAIN.md, Banks).
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BankId {
    Absa,
    Capitec,
    Fnb,
    Nedbank,
    StandardBank,
    AfricanBank,
    Investec,
    Tymebank,
    DiscoveryBank,
    BidvestBank,
    BankZero,
    AccessBank,
    Sasfin,
    SaPostBank,
    RandMerchantBank,
    Albaraka,
    Hsbc,
    Citibank,
    StandardChartered,
    FinbondMutual,
    Ubank,
}

#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AccountType {
    /// Also called a cheque account.
    Current,
    Savings,
    Transmission,
}

/// What a user types to add a customer's bank account.
#[derive(Serialize, Deserialize, TS, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BankAccountInput {
    pub bank: BankId,
    pub branch_code: String,
    pub account_type: AccountType,
    pub holder_name: String,
    pub account_number: String,
}

#[derive(Serialize, Deserialize, TS, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BankAccount {
    pub id: String,
    pub customer_id: String,
    pub bank: BankId,
    pub branch_code: String,
    pub account_type: AccountType,
    pub holder_name: String,
    pub account_number: String,
    #[ts(type = "number")]
    pub created_at: i64,
}
