//! Merchant streams: the per-merchant sequence, the event log (truth for
//! resume and for other nodes) and the results of commands already run.

use protocol::Mode;
use sqlx::Row;

use super::Db;
use super::sql::{Bind, Sql};
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

/// A command that already ran under a client-made id.
pub struct CommandResult {
    /// Who sent it.
    pub user_id: String,
    /// What it said: see [`command_fingerprint`]. None for commands recorded
    /// before fingerprints were.
    pub fingerprint: Option<String>,
    /// Its reply, encoded.
    pub reply: Vec<u8>,
}

impl CommandResult {
    /// Whether `user_id` sending a command with `fingerprint` is a retry of
    /// this one (and gets its reply again), not a different command reusing
    /// the id.
    pub fn is_retry_of(&self, user_id: &str, fingerprint: &str) -> bool {
        self.user_id == user_id
            && self
                .fingerprint
                .as_deref()
                .is_none_or(|stored| stored == fingerprint)
    }
}

/// The SHA-256 of a command's canonical encoding: a retry decodes to the same
/// command whatever order its client wrote the fields in.
pub fn command_fingerprint(command: &protocol::Command) -> AppResult<String> {
    Ok(crate::ids::hash_bytes(&protocol::encode(command)?))
}

/// The command that already ran under a client-made id, if any.
pub async fn find_command_result(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    command_id: &str,
) -> AppResult<Option<CommandResult>> {
    let row = sqlx::query("SELECT user_id, body_hash, reply FROM command_results WHERE merchant_id = $1 AND mode = $2 AND command_id = $3")
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(command_id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|r| CommandResult {
        user_id: r.get("user_id"),
        fingerprint: r.get("body_hash"),
        reply: r.get("reply"),
    }))
}

/// The ran command's id, who sent it and its fingerprint, for retries.
pub struct CommandRun<'a> {
    pub command_id: &'a str,
    pub user_id: &'a str,
    pub fingerprint: &'a str,
}

/// The stored reply of a command, to be written with its event
/// (`Work::writing`): the insert fails on a used command id, which rolls the
/// whole write back, so a retry never commits twice.
pub fn command_reply_row(
    merchant_id: &str,
    mode: Mode,
    run: &CommandRun<'_>,
    reply: Vec<u8>,
) -> Sql {
    Sql::statement(
        "INSERT INTO command_results (merchant_id, mode, command_id, user_id, body_hash, reply, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        vec![
            Bind::Text(merchant_id.into()),
            Bind::Text(mode.as_str().into()),
            Bind::Text(run.command_id.into()),
            Bind::Text(run.user_id.into()),
            Bind::Text(run.fingerprint.into()),
            Bind::Blob(reply),
            Bind::Int(now_ms()),
        ],
    )
}
