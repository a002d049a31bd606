//! The ledger: signed money entries per merchant and mode. Rows are only
//! added; every query takes the merchant id and the mode.

use protocol::{Mode, PaymentMethod, StatementLine};
use sqlx::Row;

use super::sql::{opt_text, stored, wire_name};
use super::{Db, Tx};
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

/// What a payout's entries keep in the method column: they are credits the
/// merchant sent, not collections of a payment method.
pub const PAYOUT_METHOD: &str = "payout";

/// An entry's method as stored: a payment method, or none for a payout's.
fn entry_method(value: &str) -> AppResult<Option<PaymentMethod>> {
    if value == PAYOUT_METHOD {
        return Ok(None);
    }
    stored(value, "method").map(Some)
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

/// The sum of a stream's entries dated before `day` (ISO date).
pub async fn sum_before(db: &Db, merchant_id: &str, mode: Mode, day: &str) -> AppResult<i64> {
    let row = sqlx::query(
        "SELECT CAST(COALESCE(SUM(amount_cents), 0) AS BIGINT) AS total FROM ledger_entries \
         WHERE merchant_id = $1 AND mode = $2 AND entry_date < $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(day)
    .fetch_one(&db.pool)
    .await?;
    Ok(row.get("total"))
}

/// The entries dated `from` to `to` summed by kind and method:
/// (kind, method, count, sum).
pub async fn totals_between(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    from: &str,
    to: &str,
) -> AppResult<Vec<(String, Option<PaymentMethod>, i64, i64)>> {
    let rows = sqlx::query(
        "SELECT kind, method, CAST(COUNT(*) AS BIGINT) AS entries, \
         CAST(COALESCE(SUM(amount_cents), 0) AS BIGINT) AS total FROM ledger_entries \
         WHERE merchant_id = $1 AND mode = $2 AND entry_date >= $3 AND entry_date <= $4 \
         GROUP BY kind, method ORDER BY kind, method",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(from)
    .bind(to)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|row| {
            Ok((
                row.get("kind"),
                entry_method(&row.get::<String, _>("method"))?,
                row.get("entries"),
                row.get("total"),
            ))
        })
        .collect()
}

/// The entries dated `from` to `to`, oldest first, with the name and
/// reference of their transaction or order: `limit` of them from `offset`.
pub async fn entries_between(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    (from, to): (&str, &str),
    offset: u32,
    limit: Option<u32>,
) -> AppResult<Vec<StatementLine>> {
    // The joins name the merchant and mode too: an entry only ever shows
    // its own stream's records.
    let rows = sqlx::query(
        "SELECT l.id, l.entry_date, l.kind, l.method, l.transaction_id, l.order_id, l.amount_cents, \
         COALESCE(c.name, t.payer_name, o.payer_name, '') AS name, \
         COALESCE(t.reference, o.reference, '') AS reference FROM ledger_entries l \
         LEFT JOIN transactions t ON t.merchant_id = l.merchant_id AND t.mode = l.mode AND t.id = l.transaction_id \
         LEFT JOIN customers c ON c.merchant_id = l.merchant_id AND c.id = t.customer_id \
         LEFT JOIN orders o ON o.merchant_id = l.merchant_id AND o.mode = l.mode AND o.id = l.order_id \
         WHERE l.merchant_id = $1 AND l.mode = $2 AND l.entry_date >= $3 AND l.entry_date <= $4 \
         ORDER BY l.entry_date, l.created_at, l.id LIMIT $5 OFFSET $6",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(from)
    .bind(to)
    .bind(limit.map_or(i64::MAX, i64::from))
    .bind(i64::from(offset))
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(StatementLine {
                id: row.get("id"),
                date: row.get("entry_date"),
                kind: row.get("kind"),
                method: entry_method(&row.get::<String, _>("method"))?,
                transaction_id: opt_text(row, "transaction_id"),
                order_id: opt_text(row, "order_id"),
                name: row.get("name"),
                reference: row.get("reference"),
                amount_cents: row.get("amount_cents"),
            })
        })
        .collect()
}
