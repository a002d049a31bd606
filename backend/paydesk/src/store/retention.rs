//! Pruning of what only a window of time needs: events past the resume
//! window (a tab resuming from one pruned is told to resync, as a tab too
//! far behind always was) and command replies past the retry window (the
//! API promises a retried idempotency key its first answer for 24 hours).
//! The account history is a table of its own and is not touched here.
//!
//! Rows go oldest first in small batches, each its own short transaction,
//! so no writer waits long behind a prune.

use super::Db;
use crate::error::AppResult;

/// Claims the background job `name` for `holder` until `lease_until`, when
/// no other node holds it (or its holder's lease ran out, as when that node
/// stopped). The holder renews its own claim. On PostgreSQL a claim another
/// node is taking at the same moment is skipped, not waited on.
pub async fn claim_job(
    db: &Db,
    name: &str,
    holder: &str,
    now: i64,
    lease_until: i64,
) -> AppResult<bool> {
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO job_leases (name, holder, lease_until) VALUES ($1, $2, 0) \
         ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .bind(holder)
    .execute(&mut *tx)
    .await?;
    let sql = format!(
        "UPDATE job_leases SET holder = $2, lease_until = $4 WHERE name IN (\
         SELECT name FROM job_leases WHERE name = $1 AND (lease_until <= $3 OR holder = $2){}) \
         RETURNING name",
        db.backend.skip_locked()
    );
    let claimed: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(name)
        .bind(holder)
        .bind(now)
        .bind(lease_until)
        .fetch_optional(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(claimed.is_some())
}

/// Deletes events created before `cutoff` (milliseconds), `batch` at a time;
/// returns how many went.
pub async fn prune_events(db: &Db, cutoff: i64, batch: i64) -> AppResult<u64> {
    prune(
        db,
        "DELETE FROM events WHERE (merchant_id, mode, seq) IN (\
         SELECT merchant_id, mode, seq FROM events WHERE created_at < $1 ORDER BY created_at LIMIT $2)",
        cutoff,
        batch,
    )
    .await
}

/// Deletes stored command replies created before `cutoff`, `batch` at a
/// time; a command retried after that runs as a new one.
pub async fn prune_replies(db: &Db, cutoff: i64, batch: i64) -> AppResult<u64> {
    prune(
        db,
        "DELETE FROM command_results WHERE (merchant_id, mode, command_id) IN (\
         SELECT merchant_id, mode, command_id FROM command_results WHERE created_at < $1 \
         ORDER BY created_at LIMIT $2)",
        cutoff,
        batch,
    )
    .await
}

async fn prune(db: &Db, sql: &'static str, cutoff: i64, batch: i64) -> AppResult<u64> {
    let mut total = 0;
    loop {
        let mut tx = db.begin_write().await?;
        let deleted = sqlx::query(sql)
            .bind(cutoff)
            .bind(batch)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        total += deleted;
        if deleted < batch.max(1) as u64 {
            return Ok(total);
        }
        // Between batches, other writers take their turn.
        tokio::task::yield_now().await;
    }
}
