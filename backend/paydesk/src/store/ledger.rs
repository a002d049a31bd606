//! The ledger: signed money entries per merchant and mode. Rows are only
//! added; every query takes the merchant id and the mode.

use protocol::{Mode, PaymentMethod};
use sqlx::Row;

use super::Tx;
use super::sql::wire_name;
use crate::error::AppResult;

pub struct LedgerRow {
    pub id: String,
    pub merchant_id: String,
    pub mode: Mode,
    pub kind: &'static str,
    pub amount_cents: i64,
    pub method: PaymentMethod,
    pub transaction_id: Option<String>,
    pub order_id: Option<String>,
    pub source_id: String,
    pub entry_date: String,
    pub available_on: String,
    pub created_at: i64,
}

/// Adds an entry unless the record already has one of its kind: a step
/// posted twice (a retried command, a replayed bank report) counts once.
pub async fn insert_entry(tx: &mut Tx, row: &LedgerRow) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO ledger_entries (id, merchant_id, mode, kind, amount_cents, method, transaction_id, \
         order_id, source_id, entry_date, available_on, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
         ON CONFLICT (merchant_id, mode, source_id, kind) DO NOTHING",
    )
    .bind(&row.id)
    .bind(&row.merchant_id)
    .bind(row.mode.as_str())
    .bind(row.kind)
    .bind(row.amount_cents)
    .bind(wire_name(&row.method))
    .bind(row.transaction_id.clone())
    .bind(row.order_id.clone())
    .bind(&row.source_id)
    .bind(&row.entry_date)
    .bind(&row.available_on)
    .bind(row.created_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The sum of a stream's entries: (available on `today`, still pending).
pub async fn sum_by_availability<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    today: &str,
) -> AppResult<(i64, i64)>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    // CAST: PostgreSQL sums BIGINT into NUMERIC, which `Any` cannot carry.
    let row = sqlx::query(
        "SELECT CAST(COALESCE(SUM(CASE WHEN available_on <= $3 THEN amount_cents ELSE 0 END), 0) AS BIGINT) AS available, \
         CAST(COALESCE(SUM(CASE WHEN available_on > $3 THEN amount_cents ELSE 0 END), 0) AS BIGINT) AS pending \
         FROM ledger_entries WHERE merchant_id = $1 AND mode = $2",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(today)
    .fetch_one(executor)
    .await?;
    Ok((row.get("available"), row.get("pending")))
}

/// The last day on which the entries of a transaction become available
/// (ISO date), if it has any.
pub async fn transaction_available_on(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    transaction_id: &str,
) -> AppResult<Option<String>> {
    let row = sqlx::query(
        "SELECT MAX(available_on) AS available_on FROM ledger_entries \
         WHERE merchant_id = $1 AND mode = $2 AND transaction_id = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(transaction_id)
    .fetch_one(&mut **tx)
    .await?;
    Ok(row.try_get("available_on").ok().flatten())
}
