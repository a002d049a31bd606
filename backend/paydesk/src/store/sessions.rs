//! Browser sessions. The cookie holds a random token; only its hash is stored.

use sqlx::Row;

use super::Db;
use crate::error::AppResult;
use protocol::SessionInfo;

use super::Tx;
use crate::ids::{hash_secret, new_id, new_secret, now_ms};

pub struct SessionRow {
    pub token_hash: String,
    /// The id the user's session list shows (never the token or its hash).
    pub public_id: String,
    pub user_id: String,
    pub expires_at: i64,
}

/// Creates a session and returns the token for the cookie (shown once,
/// never stored) with the sign-in's history entry, to be announced.
pub async fn create_session(
    db: &Db,
    user_id: &str,
    ttl_seconds: i64,
    user_agent: &str,
    address: &str,
) -> AppResult<(String, protocol::HistoryEntry)> {
    let token = new_secret();
    let now = now_ms();
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at, user_agent, address, public_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(hash_secret(&token))
    .bind(user_id)
    .bind(now)
    .bind(now + ttl_seconds * 1000)
    .bind(now)
    .bind(truncate(user_agent, 256))
    .bind(truncate(address, 64))
    .bind(new_id("ses"))
    .execute(&mut *tx)
    .await?;
    // Every new session is a sign-in the account's history shows.
    let entry = super::history::record_account(
        &mut tx,
        &super::history::AccountEvent {
            user_id,
            action: protocol::HistoryAction::SignedIn,
            address: Some(address),
            user_agent: Some(user_agent),
        },
    )
    .await?;
    tx.commit().await?;
    Ok((token, entry))
}

/// The live session for a cookie token; extends it (sliding expiry) when used.
pub async fn find_live_session(
    db: &Db,
    token: &str,
    ttl_seconds: i64,
) -> AppResult<Option<SessionRow>> {
    let token_hash = hash_secret(token);
    let now = now_ms();
    let row = sqlx::query(
        "SELECT user_id, public_id, expires_at FROM sessions WHERE token_hash = $1 AND expires_at > $2",
    )
    .bind(&token_hash)
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let expires_at = now + ttl_seconds * 1000;
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE token_hash = $3")
        .bind(now)
        .bind(expires_at)
        .bind(&token_hash)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Some(SessionRow {
        token_hash,
        public_id: row
            .get::<Option<String>, _>("public_id")
            .unwrap_or_default(),
        user_id: row.get("user_id"),
        expires_at,
    }))
}

/// The user a live session token belongs to, without using the session
/// (no new expiry): for naming who sent a refused request.
pub async fn user_of_live_session(db: &Db, token: &str) -> AppResult<Option<String>> {
    let row = sqlx::query("SELECT user_id FROM sessions WHERE token_hash = $1 AND expires_at > $2")
        .bind(hash_secret(token))
        .bind(now_ms())
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|row| row.get("user_id")))
}

/// Whether a session (by hash) still stands: sockets re-check this.
pub async fn session_is_live(db: &Db, token_hash: &str) -> AppResult<bool> {
    let row = sqlx::query("SELECT 1 FROM sessions WHERE token_hash = $1 AND expires_at > $2")
        .bind(token_hash)
        .bind(now_ms())
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.is_some())
}

/// Session hashes asked about in one query: far below the bound on bound
/// parameters of SQLite (32,766) and PostgreSQL (65,535).
const LIVE_AMONG_CHUNK: usize = 5_000;

/// Which of `token_hashes` still name a live session. One query for up to
/// 5,000 sessions, so a node re-checks all of its sockets at once instead of
/// one read per socket.
pub async fn live_among(
    db: &Db,
    token_hashes: &[String],
) -> AppResult<std::collections::HashSet<String>> {
    let mut live = std::collections::HashSet::new();
    for chunk in token_hashes.chunks(LIVE_AMONG_CHUNK) {
        let placeholders = (0..chunk.len())
            .map(|i| format!("${}", i + 2))
            .collect::<Vec<_>>()
            .join(", ");
        // Only numbered placeholders are formatted in; every value is bound.
        let sql = format!(
            "SELECT token_hash FROM sessions WHERE expires_at > $1 AND token_hash IN ({placeholders})"
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(now_ms());
        for hash in chunk {
            query = query.bind(hash);
        }
        for row in query.fetch_all(&db.pool).await? {
            live.insert(row.try_get::<String, _>("token_hash")?);
        }
    }
    Ok(live)
}

pub async fn delete_session(db: &Db, token_hash: &str) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// The user's live sessions, most recently used first; `current_hash` marks the asker's.
pub async fn list_sessions(
    db: &Db,
    user_id: &str,
    current_hash: &str,
) -> AppResult<Vec<SessionInfo>> {
    let rows = sqlx::query(
        "SELECT token_hash, public_id, user_agent, address, created_at, last_seen_at FROM sessions \
         WHERE user_id = $1 AND expires_at > $2 ORDER BY last_seen_at DESC",
    )
    .bind(user_id)
    .bind(now_ms())
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| SessionInfo {
            current: r.get::<String, _>("token_hash") == current_hash,
            id: r.get::<Option<String>, _>("public_id").unwrap_or_default(),
            user_agent: r.get("user_agent"),
            address: r.get("address"),
            created_at: r.get("created_at"),
            last_seen_at: r.get("last_seen_at"),
        })
        .collect())
}

/// Ends one session of the user by its public id; returns its hash so its
/// sockets can be closed.
pub async fn delete_session_by_public_id(
    db: &Db,
    user_id: &str,
    public_id: &str,
) -> AppResult<Option<String>> {
    let mut tx = db.begin_write().await?;
    let row = sqlx::query(
        "DELETE FROM sessions WHERE user_id = $1 AND public_id = $2 RETURNING token_hash",
    )
    .bind(user_id)
    .bind(public_id)
    .fetch_optional(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(row.map(|r| r.get("token_hash")))
}

/// Ends every session of the user but `keep_hash` (none kept when None);
/// returns the hashes ended.
pub async fn delete_other_sessions(
    tx: &mut Tx,
    user_id: &str,
    keep_hash: Option<&str>,
) -> AppResult<Vec<String>> {
    let rows = sqlx::query(
        "DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2 RETURNING token_hash",
    )
    .bind(user_id)
    .bind(keep_hash.unwrap_or(""))
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.into_iter().map(|r| r.get("token_hash")).collect())
}

fn truncate(value: &str, max: usize) -> String {
    value.chars().take(max).collect()
}
