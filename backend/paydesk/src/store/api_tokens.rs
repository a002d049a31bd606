//! API tokens. Every query of the tokens screen takes the merchant and the
//! mode; finding a token by its secret's hash serves every merchant (it is
//! how a request says whose it is).

use sqlx::Row;

use super::sql::{Bind, Sql};
use super::stream::StreamKey;
use super::{Db, Tx};
use crate::error::AppResult;

/// A token as stored, with its creator's name.
#[derive(Clone, Debug)]
pub struct TokenRow {
    pub id: String,
    pub merchant_id: String,
    pub mode: String,
    pub name: String,
    pub prefix: String,
    pub permissions: String,
    pub allowed_addresses: String,
    pub expires_at: Option<i64>,
    pub previous_secret_until: Option<i64>,
    pub created_by: String,
    pub created_by_name: String,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
    pub last_used_at: Option<i64>,
    pub last_used_from: Option<String>,
}

impl sqlx::FromRow<'_, sqlx::any::AnyRow> for TokenRow {
    fn from_row(row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row;
        Ok(Self {
            id: row.try_get("id")?,
            merchant_id: row.try_get("merchant_id")?,
            mode: row.try_get("mode")?,
            name: row.try_get("name")?,
            prefix: row.try_get("prefix")?,
            permissions: row.try_get("permissions")?,
            allowed_addresses: row.try_get("allowed_addresses")?,
            expires_at: row.try_get("expires_at")?,
            previous_secret_until: row.try_get("previous_secret_until")?,
            created_by: row.try_get("created_by")?,
            created_by_name: row.try_get("created_by_name")?,
            created_at: row.try_get("created_at")?,
            revoked_at: row.try_get("revoked_at")?,
            last_used_at: row.try_get("last_used_at")?,
            last_used_from: row.try_get("last_used_from")?,
        })
    }
}

/// What a new token is stored with.
pub struct NewToken<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub prefix: &'a str,
    pub secret_hash: &'a str,
    pub permissions: &'a str,
    pub allowed_addresses: &'a str,
    pub expires_at: Option<i64>,
    pub created_by: &'a str,
}

const COLUMNS: &str = "t.id, t.merchant_id, t.mode, t.name, t.prefix, t.permissions, \
     t.allowed_addresses, t.expires_at, t.previous_secret_until, t.created_by, \
     COALESCE(u.name, '') AS created_by_name, t.created_at, t.revoked_at, t.last_used_at, \
     t.last_used_from";

const FROM: &str = "api_tokens t LEFT JOIN users u ON u.id = t.created_by";

pub async fn insert(tx: &mut Tx, key: &StreamKey, token: &NewToken<'_>, now: i64) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO api_tokens (id, merchant_id, mode, name, prefix, secret_hash, permissions, \
         allowed_addresses, expires_at, created_by, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(token.id)
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(token.name)
    .bind(token.prefix)
    .bind(token.secret_hash)
    .bind(token.permissions)
    .bind(token.allowed_addresses)
    .bind(token.expires_at)
    .bind(token.created_by)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn find(tx: &mut Tx, key: &StreamKey, token_id: &str) -> AppResult<Option<TokenRow>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM {FROM} WHERE t.merchant_id = $1 AND t.mode = $2 AND t.id = $3"
    )))
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(token_id)
    .fetch_optional(&mut **tx)
    .await?)
}

/// The stream's tokens, newest first.
pub async fn list(db: &Db, key: &StreamKey) -> AppResult<Vec<TokenRow>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM {FROM} WHERE t.merchant_id = $1 AND t.mode = $2 \
         ORDER BY t.created_at DESC, t.id DESC"
    )))
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .fetch_all(&db.pool)
    .await?)
}

/// Replaces a live token's secret; the old hash keeps working until
/// `previous_until` (none: at once).
pub async fn replace_secret(
    tx: &mut Tx,
    key: &StreamKey,
    token_id: &str,
    secret_hash: &str,
    prefix: &str,
    previous_until: Option<i64>,
) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE api_tokens SET previous_secret_hash = CASE WHEN $6 IS NULL THEN NULL ELSE secret_hash END, \
         previous_secret_until = $6, secret_hash = $4, prefix = $5 \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3 AND revoked_at IS NULL",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(token_id)
    .bind(secret_hash)
    .bind(prefix)
    .bind(previous_until)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Revokes a token that is not revoked yet.
pub async fn revoke(tx: &mut Tx, key: &StreamKey, token_id: &str, now: i64) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE api_tokens SET revoked_at = $4, previous_secret_hash = NULL, previous_secret_until = NULL \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3 AND revoked_at IS NULL",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(token_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The ids of every token made by `$2` (a member or a token) on merchant
/// `$1`, in any mode, and of those made by them in turn, however deep.
const MADE_BY: &str = "WITH RECURSIVE made(id) AS (\
     SELECT id FROM api_tokens WHERE merchant_id = $1 AND created_by = $2 \
     UNION SELECT t.id FROM api_tokens t JOIN made m ON t.created_by = m.id \
     WHERE t.merchant_id = $1)";

/// Revokes, at `now`, every token still usable that `creator` made on the
/// merchant (in both modes) or that those made in turn: a token lives no
/// longer than whoever made it. Returns each revoked token's id and mode.
pub async fn revoke_made_by(
    tx: &mut Tx,
    merchant_id: &str,
    creator: &str,
    now: i64,
) -> AppResult<Vec<(String, String)>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{MADE_BY} UPDATE api_tokens SET revoked_at = $3, previous_secret_hash = NULL, \
         previous_secret_until = NULL WHERE merchant_id = $1 AND revoked_at IS NULL \
         AND id IN (SELECT id FROM made) RETURNING id, mode"
    )))
    .bind(merchant_id)
    .bind(creator)
    .bind(now)
    .fetch_all(&mut **tx)
    .await?)
}

/// The tokens of `key`'s stream that `creator`'s line of tokens lost at
/// `at` (`revoke_made_by`), as the screen lists them.
pub async fn revoked_made_by(
    db: &Db,
    key: &StreamKey,
    creator: &str,
    at: i64,
) -> AppResult<Vec<TokenRow>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{MADE_BY} SELECT {COLUMNS} FROM {FROM} WHERE t.merchant_id = $1 AND t.mode = $3 \
         AND t.revoked_at = $4 AND t.id IN (SELECT id FROM made) ORDER BY t.created_at, t.id"
    )))
    .bind(&key.merchant_id)
    .bind(creator)
    .bind(key.mode.as_str())
    .bind(at)
    .fetch_all(&db.pool)
    .await?)
}

/// The token a presented secret's hash opens: its current secret, or the
/// one before the last roll while that is in its grace period. Revoked and
/// expired tokens are found too; the caller says why they are refused.
pub async fn find_by_secret(db: &Db, secret_hash: &str, now: i64) -> AppResult<Option<TokenRow>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM {FROM} WHERE t.secret_hash = $1 \
         OR (t.previous_secret_hash = $1 AND t.previous_secret_until > $2)"
    )))
    .bind(secret_hash)
    .bind(now)
    .fetch_optional(&db.pool)
    .await?)
}

/// Whether the token is still usable now (not revoked), read fresh.
pub async fn revoked_at(db: &Db, token_id: &str) -> AppResult<Option<Option<i64>>> {
    use sqlx::Row;
    let row = sqlx::query("SELECT revoked_at FROM api_tokens WHERE id = $1")
        .bind(token_id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|r| r.get::<Option<i64>, _>("revoked_at")))
}

/// Notes when and from where a token was last used. Bookkeeping beside the
/// stream like a session's last-seen time, not a change of the merchant's
/// data: no event.
pub async fn touch(db: &Db, token_id: &str, at: i64, from: &str) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE api_tokens SET last_used_at = $2, last_used_from = $3 WHERE id = $1")
        .bind(token_id)
        .bind(at)
        .bind(from)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// The statement that reads a usable token's matrix as stored: revoked,
/// expired or of another stream, no row. A command's write reads it in the
/// round trip that opens its turn (`stream::Check`), so a token revoked a
/// moment ago runs nothing more.
pub fn live_permissions_query(key: &StreamKey, token_id: &str, now: i64) -> Sql {
    Sql::statement(
        "SELECT permissions FROM api_tokens WHERE merchant_id = $1 AND mode = $2 AND id = $3 \
         AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $4)",
        vec![
            Bind::Text(key.merchant_id.clone()),
            Bind::Text(key.mode.as_str().into()),
            Bind::Text(token_id.into()),
            Bind::Int(now),
        ],
    )
}

/// The stored matrix in the rows of `live_permissions_query`: none if the
/// token is not usable.
pub fn live_permissions_of(rows: &[sqlx::any::AnyRow]) -> AppResult<Option<String>> {
    Ok(rows
        .first()
        .map(|row| row.try_get::<String, _>("permissions"))
        .transpose()?)
}

/// The token's name and its merchant's, for a token socket's welcome.
pub async fn names(db: &Db, token_id: &str) -> AppResult<Option<(String, String)>> {
    Ok(sqlx::query_as(
        "SELECT t.name, m.name FROM api_tokens t JOIN merchants m ON m.id = t.merchant_id WHERE t.id = $1",
    )
    .bind(token_id)
    .fetch_optional(&db.pool)
    .await?)
}
