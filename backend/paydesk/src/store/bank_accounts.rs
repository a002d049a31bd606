//! Customers' bank accounts. Every function takes the merchant id and mode.

use protocol::{AccountType, BankAccount, BankAccountInput, BankId, Mode};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Db, Tx};
use crate::error::AppResult;

/// An account that passed every check of the domain's `validate_bank_account`,
/// its bank known: what the store writes and compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedAccount {
    pub bank: BankId,
    pub branch_code: String,
    pub account_type: AccountType,
    pub holder_name: String,
    pub account_number: String,
}

impl CheckedAccount {
    /// The account as a command carries it.
    pub fn input(&self) -> BankAccountInput {
        BankAccountInput {
            bank: Some(self.bank),
            branch_code: self.branch_code.clone(),
            account_type: self.account_type,
            holder_name: self.holder_name.clone(),
            account_number: self.account_number.clone(),
        }
    }
}

const COLUMNS: &str =
    "id, customer_id, bank, branch_code, account_type, holder_name, account_number, created_at";

fn from_row(row: &AnyRow) -> Option<BankAccount> {
    let bank: String = row.get("bank");
    let account_type: String = row.get("account_type");
    Some(BankAccount {
        id: row.get("id"),
        customer_id: row.get("customer_id"),
        bank: serde_plain(&bank)?,
        branch_code: row.get("branch_code"),
        account_type: serde_plain(&account_type)?,
        holder_name: row.get("holder_name"),
        account_number: row.get("account_number"),
        created_at: row.get("created_at"),
    })
}

/// Enum values are stored as their wire names.
fn serde_plain<T: serde::de::DeserializeOwned>(value: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(value.to_string())).ok()
}

fn wire_name<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

pub fn bank_name(bank: BankId) -> String {
    wire_name(&bank)
}

pub fn account_type_name(account_type: AccountType) -> String {
    wire_name(&account_type)
}

pub async fn insert_bank_account(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    id: &str,
    customer_id: &str,
    input: &CheckedAccount,
    now: i64,
) -> AppResult<Option<BankAccount>> {
    let sql = format!(
        "INSERT INTO bank_accounts (id, merchant_id, mode, customer_id, bank, branch_code, account_type, holder_name, \
         account_number, created_at, removed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL) RETURNING {COLUMNS}"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(customer_id)
        .bind(bank_name(input.bank))
        .bind(&input.branch_code)
        .bind(account_type_name(input.account_type))
        .bind(&input.holder_name)
        .bind(&input.account_number)
        .bind(now)
        .fetch_one(&mut **tx)
        .await?;
    Ok(from_row(&row))
}

/// Whether the customer already has this account (not removed).
pub async fn account_exists(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    customer_id: &str,
    bank: BankId,
    account_number: &str,
) -> AppResult<bool> {
    let row = sqlx::query(
        "SELECT 1 FROM bank_accounts WHERE merchant_id = $1 AND mode = $2 AND customer_id = $3 AND bank = $4 \
         AND account_number = $5 AND removed_at IS NULL",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(customer_id)
    .bind(bank_name(bank))
    .bind(account_number)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.is_some())
}

/// Marks an account removed; returns its customer id, or None when there is
/// no such (unremoved) account of the merchant.
pub async fn remove_bank_account(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    id: &str,
    now: i64,
) -> AppResult<Option<String>> {
    let row = sqlx::query(
        "UPDATE bank_accounts SET removed_at = $4 WHERE merchant_id = $1 AND mode = $2 AND id = $3 AND removed_at IS NULL \
         RETURNING customer_id",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(id)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|r| r.get("customer_id")))
}

pub async fn list_bank_accounts(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    customer_id: &str,
) -> AppResult<Vec<BankAccount>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM bank_accounts WHERE merchant_id = $1 AND mode = $2 AND customer_id = $3 AND removed_at IS NULL \
         ORDER BY id"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(customer_id)
        .fetch_all(&db.pool)
        .await?;
    Ok(rows.iter().filter_map(from_row).collect())
}

/// One account of the merchant's customer, unless removed.
pub async fn find_bank_account(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<BankAccount>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM bank_accounts WHERE merchant_id = $1 AND mode = $2 AND id = $3 AND removed_at IS NULL"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.as_ref().and_then(from_row))
}
