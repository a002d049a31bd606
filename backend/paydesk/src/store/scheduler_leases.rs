//! Which node's scheduler plays a stream's days. A node claims a stream
//! until `lease_until` and renews the claim each round, so two nodes never
//! play the same stream at once; a node that stops leaves its streams to
//! the others once its leases run out. On PostgreSQL the claim is taken
//! with FOR UPDATE SKIP LOCKED: a stream another node is claiming at the
//! same moment is skipped, not waited on.

use super::Db;
use super::stream::StreamKey;
use crate::error::AppResult;

/// Claims `key` for `holder` until `lease_until` when it is free (never
/// claimed, or its lease ran out) or already `holder`'s.
pub async fn claim(
    db: &Db,
    key: &StreamKey,
    holder: &str,
    now: i64,
    lease_until: i64,
) -> AppResult<bool> {
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO scheduler_leases (merchant_id, mode, holder, lease_until) VALUES ($1, $2, $3, 0) \
         ON CONFLICT (merchant_id, mode) DO NOTHING",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(holder)
    .execute(&mut *tx)
    .await?;
    let sql = format!(
        "UPDATE scheduler_leases SET holder = $3, lease_until = $5 \
         WHERE merchant_id = $1 AND mode = $2 AND merchant_id IN (\
         SELECT merchant_id FROM scheduler_leases WHERE merchant_id = $1 AND mode = $2 \
         AND (lease_until <= $4 OR holder = $3){}) RETURNING holder",
        db.backend.skip_locked()
    );
    let claimed: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(&key.merchant_id)
        .bind(key.mode.as_str())
        .bind(holder)
        .bind(now)
        .bind(lease_until)
        .fetch_optional(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(claimed.is_some())
}

/// Frees every lease. Only for a single node's start on SQLite, which no
/// other process writes: any lease there is its own previous run's.
pub async fn release_all(db: &Db) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE scheduler_leases SET lease_until = 0")
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}
