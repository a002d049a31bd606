//! Failed API token authentications per client address, counted in the
//! database so that all nodes share one count: an address guessing through
//! several nodes meets one limit, not one per node. Rows are keyed by the
//! address's hash and live for one window.

use sqlx::Row;

use super::Db;
use crate::error::AppResult;
use crate::ids::{hash_secret, now_ms};

/// Counts one failure from `address` and returns the failures of its
/// current window (which starts with the first failure and lasts
/// `window_ms`). The count is one statement, so racing failures on any
/// node each see their own count.
pub async fn record_failure(db: &Db, address: &str, window_ms: i64) -> AppResult<u32> {
    let now = now_ms();
    // Ended windows go first (this address's too, so it starts again at
    // one): the table holds only addresses failing now.
    sqlx::query("DELETE FROM api_token_failures WHERE window_ends_at <= $1")
        .bind(now)
        .execute(&db.pool)
        .await?;
    let row = sqlx::query(
        "INSERT INTO api_token_failures (address_hash, failures, window_ends_at) VALUES ($1, 1, $2) \
         ON CONFLICT (address_hash) DO UPDATE SET failures = api_token_failures.failures + 1 \
         RETURNING failures",
    )
    .bind(hash_secret(address))
    .bind(now + window_ms)
    .fetch_one(&db.pool)
    .await?;
    Ok(u32::try_from(row.get::<i64, _>("failures")).unwrap_or(u32::MAX))
}
