//! Mandates. Every function takes the merchant id and mode.

use protocol::{Mandate, MandateFilter, MandateInput, MandateStatus, Mode};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::Tx;
use super::sql::{Bind, PageRequest, Sql, flag, opt_int, opt_text, push_page, stored, wire_name};
use crate::error::AppResult;

const SELECT: &str = "SELECT m.*, c.name AS customer_name, c.email AS customer_email, b.bank AS bank, \
     b.account_number AS account_number FROM mandates m \
     JOIN customers c ON c.id = m.customer_id JOIN bank_accounts b ON b.id = m.bank_account_id";

/// Only the last four digits of an account number leave the server.
pub fn last_digits(account_number: &str) -> String {
    let skip = account_number.chars().count().saturating_sub(4);
    account_number.chars().skip(skip).collect()
}

fn from_row(row: &AnyRow) -> AppResult<Mandate> {
    Ok(Mandate {
        id: row.get("id"),
        mode: stored(&row.get::<String, _>("mode"), "mode")?,
        customer_id: row.get("customer_id"),
        customer_name: row.get("customer_name"),
        customer_email: row.get("customer_email"),
        bank_account_id: row.get("bank_account_id"),
        bank: stored(&row.get::<String, _>("bank"), "bank")?,
        account_last_digits: last_digits(&row.get::<String, _>("account_number")),
        method: stored(&row.get::<String, _>("method"), "method")?,
        status: stored(&row.get::<String, _>("status"), "mandate status")?,
        archived: flag(row, "archived"),
        client_type: stored(&row.get::<String, _>("client_type"), "client type")?,
        industry: stored(&row.get::<String, _>("industry"), "industry")?,
        contract_reference: row.get("contract_reference"),
        amount_cents: row.get("amount_cents"),
        maximum_collection_cents: opt_int(row, "maximum_collection_cents"),
        allow_tracking: flag(row, "allow_tracking"),
        tracking_days: opt_int(row, "tracking_days").map(|d| d.clamp(0, 255) as u8),
        allow_date_adjustment: flag(row, "allow_date_adjustment"),
        variable_amount: flag(row, "variable_amount"),
        adjustment_category: stored(
            &row.get::<String, _>("adjustment_category"),
            "adjustment category",
        )?,
        adjustment_type: opt_text(row, "adjustment_type")
            .map(|t| stored(&t, "adjustment type"))
            .transpose()?,
        adjustment_rate: row.get("adjustment_rate"),
        adjustment_amount_cents: opt_int(row, "adjustment_amount_cents"),
        approval_window: opt_text(row, "approval_window")
            .map(|w| stored(&w, "approval window"))
            .transpose()?,
        abbreviated_name: row.get("abbreviated_name"),
        authentication_requests: row.get::<i64, _>("authentication_requests").max(0) as u32,
        authentication_due: opt_text(row, "authentication_due"),
        end_date: opt_text(row, "end_date"),
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
    })
}

/// A new mandate as validated by the domain.
pub struct NewMandate<'a> {
    pub id: &'a str,
    pub customer_id: &'a str,
    pub bank_account_id: &'a str,
    pub input: &'a MandateInput,
    pub amount_cents: i64,
    pub status: MandateStatus,
    pub authentication_requests: u32,
    pub authentication_due: Option<String>,
    pub end_date: Option<String>,
    pub now: i64,
}

pub async fn insert_mandate(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    new: &NewMandate<'_>,
) -> AppResult<()> {
    let input = new.input;
    sqlx::query(
        "INSERT INTO mandates (id, merchant_id, mode, customer_id, bank_account_id, method, status, archived, \
         client_type, industry, contract_reference, amount_cents, maximum_collection_cents, allow_tracking, \
         tracking_days, allow_date_adjustment, variable_amount, adjustment_category, adjustment_type, \
         adjustment_rate, adjustment_amount_cents, approval_window, abbreviated_name, authentication_requests, \
         authentication_due, end_date, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, $10, \
         $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $26)",
    )
    .bind(new.id)
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(new.customer_id)
    .bind(new.bank_account_id)
    .bind(input.method.as_str())
    .bind(wire_name(&new.status))
    .bind(wire_name(&input.client_type))
    .bind(wire_name(&input.industry))
    .bind(&input.contract_reference)
    .bind(new.amount_cents)
    .bind(input.maximum_collection_cents)
    .bind(i64::from(input.allow_tracking))
    .bind(input.tracking_days.map(i64::from))
    .bind(i64::from(input.allow_date_adjustment))
    .bind(i64::from(input.variable_amount))
    .bind(wire_name(&input.adjustment_category))
    .bind(input.adjustment_type.map(|t| wire_name(&t)))
    .bind(&input.adjustment_rate)
    .bind(input.adjustment_amount_cents)
    .bind(input.approval_window.map(|w| wire_name(&w)))
    .bind(&input.abbreviated_name)
    .bind(i64::from(new.authentication_requests))
    .bind(new.authentication_due.clone())
    .bind(new.end_date.clone())
    .bind(new.now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn find_mandate<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<Mandate>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let mut sql = Sql::in_stream(SELECT, "m", merchant_id, mode);
    sql.and("m.id = {}", Bind::Text(id.into()));
    let row = sql.query().fetch_optional(executor).await?;
    row.as_ref().map(from_row).transpose()
}

/// The full account number a mandate debits, for the bank only.
pub async fn mandate_account_number(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<String>> {
    let row = sqlx::query(
        "SELECT b.account_number FROM mandates m JOIN bank_accounts b ON b.id = m.bank_account_id \
         WHERE m.merchant_id = $1 AND m.mode = $2 AND m.id = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|r| r.get("account_number")))
}

/// Writes what a lifecycle step changes.
pub async fn update_mandate_state(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    mandate: &Mandate,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE mandates SET status = $4, archived = $5, authentication_requests = $6, authentication_due = $7, \
         updated_at = $8 WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(&mandate.id)
    .bind(wire_name(&mandate.status))
    .bind(i64::from(mandate.archived))
    .bind(i64::from(mandate.authentication_requests))
    .bind(mandate.authentication_due.clone())
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Mandates waiting for the payer whose answer is due by `day`.
pub async fn due_authentications(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    day: &str,
) -> AppResult<Vec<String>> {
    let rows = sqlx::query(
        "SELECT id FROM mandates WHERE merchant_id = $1 AND mode = $2 AND status = 'pending_authentication' \
         AND archived = 0 AND authentication_due <= $3 ORDER BY id",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(day)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.iter().map(|r| r.get("id")).collect())
}

/// Live mandates whose end date is before `day`.
pub async fn ended_mandates(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    day: &str,
) -> AppResult<Vec<String>> {
    let rows = sqlx::query(
        "SELECT id FROM mandates WHERE merchant_id = $1 AND mode = $2 AND status IN ('active', 'suspended') \
         AND archived = 0 AND end_date IS NOT NULL AND end_date < $3 ORDER BY id",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(day)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.iter().map(|r| r.get("id")).collect())
}

pub async fn list_mandates(
    db: &super::Db,
    merchant_id: &str,
    mode: Mode,
    filter: &MandateFilter,
    page: &PageRequest,
) -> AppResult<Vec<Mandate>> {
    let mut sql = Sql::in_stream(SELECT, "m", merchant_id, mode);
    sql.and("m.archived = {}", Bind::Int(i64::from(filter.archived)));
    sql.and_some(
        "m.status = {}",
        filter.status.map(|s| Bind::Text(wire_name(&s))),
    );
    sql.and_some(
        "m.method = {}",
        filter.method.map(|m| Bind::Text(m.as_str().into())),
    );
    sql.and_some(
        "m.customer_id = {}",
        filter.customer_id.clone().map(Bind::Text),
    );
    if filter.e_mandates_only {
        sql.push(" AND m.authentication_requests > 0");
    }
    sql.and_search(
        filter.search.as_deref(),
        &["c.search_text", "LOWER(m.contract_reference)"],
        "b.account_number",
    );
    push_page(&mut sql, "m", page);
    let rows = sql.query().fetch_all(&db.pool).await?;
    rows.iter().map(from_row).collect()
}
