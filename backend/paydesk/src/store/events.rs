//! Merchant streams: the per-merchant sequence, the event log (truth for
//! resume and for other nodes) and the results of commands already run.

use protocol::Mode;
use sqlx::Row;

use super::{Db, Tx};
use crate::error::AppResult;
use crate::ids::{new_id, now_ms};

/// The stream position: `epoch` names this log; `seq` is its last delta.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamPosition {
    pub epoch: String,
    pub seq: u64,
}

/// Opens (creating when missing) the stream of a merchant and mode.
pub async fn open_stream(db: &Db, merchant_id: &str, mode: Mode) -> AppResult<StreamPosition> {
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO merchant_streams (merchant_id, mode, epoch, seq) VALUES ($1, $2, $3, 0) \
         ON CONFLICT (merchant_id, mode) DO NOTHING",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(new_id("ep"))
    .execute(&mut *tx)
    .await?;
    let row =
        sqlx::query("SELECT epoch, seq FROM merchant_streams WHERE merchant_id = $1 AND mode = $2")
            .bind(merchant_id)
            .bind(mode.as_str())
            .fetch_one(&mut *tx)
            .await?;
    tx.commit().await?;
    Ok(StreamPosition {
        epoch: row.get("epoch"),
        seq: row.get::<i64, _>("seq") as u64,
    })
}

/// Events after `after_seq`, oldest first, at most `limit`.
pub async fn events_after(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    after_seq: u64,
    limit: i64,
) -> AppResult<Vec<(u64, Vec<u8>)>> {
    let rows = sqlx::query(
        "SELECT seq, changes FROM events WHERE merchant_id = $1 AND mode = $2 AND seq > $3 ORDER BY seq LIMIT $4",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(after_seq as i64)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            (
                r.get::<i64, _>("seq") as u64,
                r.get::<Vec<u8>, _>("changes"),
            )
        })
        .collect())
}

/// The stored reply of a command that already ran, by its client-made id.
pub async fn find_command_reply(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    command_id: &str,
) -> AppResult<Option<Vec<u8>>> {
    let row = sqlx::query("SELECT reply FROM command_results WHERE merchant_id = $1 AND mode = $2 AND command_id = $3")
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(command_id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|r| r.get("reply")))
}

pub async fn record_command_reply(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    command_id: &str,
    user_id: &str,
    reply: &[u8],
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO command_results (merchant_id, mode, command_id, user_id, reply, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(command_id)
    .bind(user_id)
    .bind(reply)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}
