//! Pay-page attempts: one per submitted form, keyed by the form's attempt
//! key so that a double submit finds the first instead of charging twice.

use protocol::Mode;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::Tx;
use super::sql::{opt_int, opt_text};
use crate::error::AppResult;

#[derive(Clone, Debug)]
pub struct AttemptRow {
    pub id: String,
    pub merchant_id: String,
    pub mode: Mode,
    pub page_id: String,
    pub attempt_key: String,
    pub method: String,
    pub status: String,
    pub order_id: String,
    pub transaction_id: Option<String>,
    /// The payer's answers as JSON (never card data).
    pub form: String,
    pub failure: Option<String>,
    /// When a step waiting on the payer expires, by the stream's clock.
    pub expires_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

fn from_row(row: &AnyRow) -> AttemptRow {
    AttemptRow {
        id: row.get("id"),
        merchant_id: row.get("merchant_id"),
        mode: Mode::parse(&row.get::<String, _>("mode")).unwrap_or(Mode::Live),
        page_id: row.get("page_id"),
        attempt_key: row.get("attempt_key"),
        method: row.get("method"),
        status: row.get("status"),
        order_id: row.get("order_id"),
        transaction_id: opt_text(row, "transaction_id"),
        form: row.get("form"),
        failure: opt_text(row, "failure"),
        expires_at: opt_int(row, "expires_at"),
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
    }
}

/// Inserts the attempt unless its page already has one with the same key;
/// returns whether it was inserted.
pub async fn insert_attempt(tx: &mut Tx, attempt: &AttemptRow) -> AppResult<bool> {
    let done = sqlx::query(
        "INSERT INTO pay_attempts (id, merchant_id, mode, page_id, attempt_key, method, status, order_id, \
         transaction_id, form, failure, created_at, updated_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
         ON CONFLICT (page_id, attempt_key) DO NOTHING",
    )
    .bind(&attempt.id)
    .bind(&attempt.merchant_id)
    .bind(attempt.mode.as_str())
    .bind(&attempt.page_id)
    .bind(&attempt.attempt_key)
    .bind(&attempt.method)
    .bind(&attempt.status)
    .bind(&attempt.order_id)
    .bind(attempt.transaction_id.clone())
    .bind(&attempt.form)
    .bind(attempt.failure.clone())
    .bind(attempt.created_at)
    .bind(attempt.updated_at)
    .bind(attempt.expires_at)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Moves an attempt on, only from the status it was read in: a second
/// answer to the same 3-D Secure or bank step changes nothing.
pub async fn advance_attempt(
    tx: &mut Tx,
    attempt: &AttemptRow,
    from_status: &str,
) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE pay_attempts SET status = $3, transaction_id = $4, failure = $5, updated_at = $6, form = $10 \
         WHERE id = $1 AND page_id = $2 AND status = $7 AND merchant_id = $8 AND mode = $9",
    )
    .bind(&attempt.id)
    .bind(&attempt.page_id)
    .bind(&attempt.status)
    .bind(attempt.transaction_id.clone())
    .bind(attempt.failure.clone())
    .bind(attempt.updated_at)
    .bind(from_status)
    .bind(&attempt.merchant_id)
    .bind(attempt.mode.as_str())
    .bind(&attempt.form)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The stream's attempts still waiting on the payer at the 3-D Secure or
/// bank step, oldest first.
pub async fn waiting_attempts<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
) -> AppResult<Vec<AttemptRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = sqlx::query(
        "SELECT * FROM pay_attempts WHERE status IN ('awaiting_3ds', 'awaiting_bank') \
         AND merchant_id = $1 AND mode = $2 ORDER BY created_at, id",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .fetch_all(executor)
    .await?;
    Ok(rows.iter().map(from_row).collect())
}

pub async fn find_by_key<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    page_id: &str,
    attempt_key: &str,
) -> AppResult<Option<AttemptRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT * FROM pay_attempts WHERE merchant_id = $1 AND mode = $2 AND page_id = $3 AND attempt_key = $4",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(page_id)
    .bind(attempt_key)
    .fetch_optional(executor)
        .await?;
    Ok(row.as_ref().map(from_row))
}

pub async fn find_attempt<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    page_id: &str,
    id: &str,
) -> AppResult<Option<AttemptRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT * FROM pay_attempts WHERE merchant_id = $1 AND mode = $2 AND page_id = $3 AND id = $4",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(page_id)
    .bind(id)
    .fetch_optional(executor)
        .await?;
    Ok(row.as_ref().map(from_row))
}

/// Ends the order's attempt if it still waits for the payer.
pub async fn fail_open_attempt_of_order(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    order_id: &str,
    failure: &str,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE pay_attempts SET status = 'failed', failure = $2, updated_at = $3 \
         WHERE order_id = $1 AND merchant_id = $4 AND mode = $5 \
         AND status IN ('awaiting_3ds', 'awaiting_bank')",
    )
    .bind(order_id)
    .bind(failure)
    .bind(now)
    .bind(merchant_id)
    .bind(mode.as_str())
    .execute(&mut **tx)
    .await?;
    Ok(())
}
