//! Customers of a merchant. Every function takes the merchant id and mode.

use protocol::{Customer, CustomerInput, CustomerStatus, IdType, Mode};
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};

use super::{Db, Tx};
use crate::error::AppResult;

const COLUMNS: &str = "id, mode, name, email, cellphone, id_type, id_number, address_line1, address_line2, city, postal_code, reference, archived_at, created_at, updated_at, version";

fn from_row(row: &AnyRow) -> Customer {
    let id_type: Option<String> = row.get("id_type");
    let reference: Option<String> = row.get("reference");
    let archived_at: Option<i64> = row.get("archived_at");
    let mode: String = row.get("mode");
    Customer {
        id: row.get("id"),
        mode: Mode::parse(&mode).unwrap_or(Mode::Live),
        name: row.get("name"),
        email: row.get("email"),
        cellphone: row.get("cellphone"),
        id_type: id_type.as_deref().and_then(IdType::parse),
        id_number: row.get("id_number"),
        address_line1: row.get("address_line1"),
        address_line2: row.get("address_line2"),
        city: row.get("city"),
        postal_code: row.get("postal_code"),
        reference: reference.unwrap_or_default(),
        archived: archived_at.is_some(),
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
        version: row.get::<i64, _>("version").max(0) as u64,
    }
}

/// Lower-cased text that a list search matches against.
pub(crate) fn search_text(input: &CustomerInput) -> String {
    [
        &input.name,
        &input.email,
        &input.reference,
        &input.id_number,
        &input.cellphone,
        &input.city,
    ]
    .iter()
    .map(|s| s.to_lowercase())
    .collect::<Vec<_>>()
    .join(" ")
}

fn none_if_empty(value: &str) -> Option<&str> {
    if value.is_empty() { None } else { Some(value) }
}

pub async fn insert_customer(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    id: &str,
    input: &CustomerInput,
    now: i64,
) -> AppResult<Customer> {
    let sql = format!(
        "INSERT INTO customers (id, merchant_id, mode, name, email, cellphone, id_type, id_number, address_line1, \
         address_line2, city, postal_code, reference, search_text, archived_at, created_at, updated_at) \
         VALUES ($3, $1, $2, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, NULL, $15, $15) RETURNING {COLUMNS}"
    );
    let row = bind_customer(sql, merchant_id, mode, id, input, now)
        .fetch_one(&mut **tx)
        .await?;
    Ok(from_row(&row))
}

/// Binds `$1` merchant, `$2` mode, `$3` id, `$4`..`$14` the fields, `$15` now:
/// the parameters the insert and the update share.
fn bind_customer<'q>(
    sql: String,
    merchant_id: &'q str,
    mode: Mode,
    id: &'q str,
    input: &'q CustomerInput,
    now: i64,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    sqlx::query(AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(id)
        .bind(&input.name)
        .bind(&input.email)
        .bind(&input.cellphone)
        .bind(input.id_type.map(IdType::as_str))
        .bind(&input.id_number)
        .bind(&input.address_line1)
        .bind(&input.address_line2)
        .bind(&input.city)
        .bind(&input.postal_code)
        .bind(none_if_empty(&input.reference))
        .bind(search_text(input))
        .bind(now)
}

pub async fn update_customer(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    id: &str,
    input: &CustomerInput,
    now: i64,
) -> AppResult<Option<Customer>> {
    let sql = format!(
        "UPDATE customers SET name = $4, email = $5, cellphone = $6, id_type = $7, id_number = $8, address_line1 = $9, \
         address_line2 = $10, city = $11, postal_code = $12, reference = $13, search_text = $14, updated_at = $15 \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3 RETURNING {COLUMNS}"
    );
    let row = bind_customer(sql, merchant_id, mode, id, input, now)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.as_ref().map(from_row))
}

/// Sets or clears the archive mark; `archived_at` None restores.
pub async fn set_customer_archived(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    id: &str,
    archived_at: Option<i64>,
    now: i64,
) -> AppResult<Option<Customer>> {
    let sql = format!(
        "UPDATE customers SET archived_at = $4, updated_at = $5 WHERE merchant_id = $1 AND mode = $2 AND id = $3 RETURNING {COLUMNS}"
    );
    let row = sqlx::query(AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(id)
        .bind(archived_at)
        .bind(now)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.as_ref().map(from_row))
}

/// The oldest active customer of the merchant with this e-mail address.
pub async fn find_active_id_by_email(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    email: &str,
) -> AppResult<Option<String>> {
    let id = sqlx::query_scalar(
        "SELECT id FROM customers WHERE merchant_id = $1 AND mode = $2 AND email = $3 \
         AND archived_at IS NULL ORDER BY id LIMIT 1",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(email)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(id)
}

pub async fn find_customer_in_tx(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<Customer>> {
    let sql =
        format!("SELECT {COLUMNS} FROM customers WHERE merchant_id = $1 AND mode = $2 AND id = $3");
    let row = sqlx::query(AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.as_ref().map(from_row))
}

pub async fn find_customer(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<Customer>> {
    let sql =
        format!("SELECT {COLUMNS} FROM customers WHERE merchant_id = $1 AND mode = $2 AND id = $3");
    let row = sqlx::query(AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.as_ref().map(from_row))
}

/// Whether another customer of the merchant already has this reference.
pub async fn reference_taken(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    reference: &str,
    except_id: Option<&str>,
) -> AppResult<bool> {
    let row = sqlx::query(
        "SELECT id FROM customers WHERE merchant_id = $1 AND mode = $2 AND reference = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(reference)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.is_some_and(|r| Some(r.get::<String, _>("id").as_str()) != except_id))
}

pub struct CustomerFilter<'a> {
    pub search: Option<&'a str>,
    pub status: CustomerStatus,
    /// Only customers older than this id (the previous page's last id).
    pub before_id: Option<&'a str>,
    pub limit: u32,
}

/// Newest first. Returns one page and whether more follow.
pub async fn list_customers(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    filter: &CustomerFilter<'_>,
) -> AppResult<(Vec<Customer>, bool)> {
    let mut sql = format!("SELECT {COLUMNS} FROM customers WHERE merchant_id = $1 AND mode = $2");
    let mut next = 3;
    match filter.status {
        CustomerStatus::Active => sql.push_str(" AND archived_at IS NULL"),
        CustomerStatus::Archived => sql.push_str(" AND archived_at IS NOT NULL"),
        CustomerStatus::All => {}
    }
    let pattern = filter
        .search
        .map(|s| format!("%{}%", escape_like(&s.to_lowercase())));
    if pattern.is_some() {
        sql.push_str(&format!(" AND search_text LIKE ${next} ESCAPE '\\'"));
        next += 1;
    }
    if filter.before_id.is_some() {
        sql.push_str(&format!(" AND id < ${next}"));
        next += 1;
    }
    sql.push_str(&format!(" ORDER BY id DESC LIMIT ${next}"));
    let mut query = sqlx::query(AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(mode.as_str());
    if let Some(pattern) = &pattern {
        query = query.bind(pattern);
    }
    if let Some(before) = filter.before_id {
        query = query.bind(before);
    }
    // One extra row tells whether another page follows.
    let rows = query
        .bind(i64::from(filter.limit) + 1)
        .fetch_all(&db.pool)
        .await?;
    let more = rows.len() > filter.limit as usize;
    Ok((
        rows.iter()
            .take(filter.limit as usize)
            .map(from_row)
            .collect(),
        more,
    ))
}

fn escape_like(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}
