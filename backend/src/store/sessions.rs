//! Browser sessions. The cookie holds a random token; only its hash is stored.

use sqlx::Row;

use super::Db;
use crate::error::AppResult;
use crate::ids::{hash_secret, new_secret, now_ms};

pub struct SessionRow {
    pub token_hash: String,
    pub user_id: String,
    pub expires_at: i64,
}

/// Creates a session and returns the token for the cookie (shown once, never stored).
pub async fn create_session(
    db: &Db,
    user_id: &str,
    ttl_seconds: i64,
    user_agent: &str,
    address: &str,
) -> AppResult<String> {
    let token = new_secret();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at, user_agent, address) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(hash_secret(&token))
    .bind(user_id)
    .bind(now)
    .bind(now + ttl_seconds * 1000)
    .bind(now)
    .bind(truncate(user_agent, 256))
    .bind(truncate(address, 64))
    .execute(&db.pool)
    .await?;
    Ok(token)
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
        "SELECT user_id, expires_at FROM sessions WHERE token_hash = $1 AND expires_at > $2",
    )
    .bind(&token_hash)
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let expires_at = now + ttl_seconds * 1000;
    sqlx::query("UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE token_hash = $3")
        .bind(now)
        .bind(expires_at)
        .bind(&token_hash)
        .execute(&db.pool)
        .await?;
    Ok(Some(SessionRow {
        token_hash,
        user_id: row.get("user_id"),
        expires_at,
    }))
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

pub async fn delete_session(db: &Db, token_hash: &str) -> AppResult<()> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(&db.pool)
        .await?;
    Ok(())
}

fn truncate(value: &str, max: usize) -> String {
    value.chars().take(max).collect()
}
