//! Failed sign-ins per e-mail address, counted in the database so that all
//! nodes share one count: the lockout holds on every node, and a completed
//! password reset lifts it on every node. Rows are keyed by the address's
//! hash (made-up addresses are counted too, alike) and pruned once stale.

use sqlx::Row;

use super::{Db, Tx};
use crate::error::AppResult;
use crate::ids::{hash_secret, now_ms};

fn key(email: &str) -> String {
    hash_secret(email)
}

/// Failures for `email` still within `window_ms` of the last one: the count
/// lives on while failures keep coming, as an attacker's would.
pub async fn recent_failures(db: &Db, email: &str, window_ms: i64) -> AppResult<u32> {
    let row = sqlx::query(
        "SELECT failures FROM signin_failures WHERE email_hash = $1 AND last_failed_at > $2",
    )
    .bind(key(email))
    .bind(now_ms() - window_ms)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map_or(0, |r| r.get::<i64, _>("failures") as u32))
}

/// Counts one failure and returns the count now. The increment is one
/// statement, so of racing failures exactly one sees each count (the one
/// that reaches the limit starts the lockout).
pub async fn record_failure(tx: &mut Tx, email: &str, window_ms: i64) -> AppResult<u32> {
    let now = now_ms();
    // Stale counts go first (this address's too, so it starts again at one):
    // the table holds only the last window's addresses.
    sqlx::query("DELETE FROM signin_failures WHERE last_failed_at <= $1")
        .bind(now - window_ms)
        .execute(&mut **tx)
        .await?;
    let row = sqlx::query(
        "INSERT INTO signin_failures (email_hash, failures, last_failed_at) VALUES ($1, 1, $2) \
         ON CONFLICT (email_hash) DO UPDATE SET failures = signin_failures.failures + 1, last_failed_at = $2 \
         RETURNING failures",
    )
    .bind(key(email))
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    Ok(row.get::<i64, _>("failures") as u32)
}

/// Forgets the failures of `email`: after a good sign-in, or when the
/// password is replaced (which lifts a lockout).
pub async fn clear(tx: &mut Tx, email: &str) -> AppResult<()> {
    sqlx::query("DELETE FROM signin_failures WHERE email_hash = $1")
        .bind(key(email))
        .execute(&mut **tx)
        .await?;
    Ok(())
}
