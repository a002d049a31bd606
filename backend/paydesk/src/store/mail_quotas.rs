//! How many mails of one kind one recipient got in the current window. The
//! quota is taken in one statement, so racing requests (on any node) never
//! send more than the limit between them.

use super::{Db, Tx};
use crate::error::AppResult;
use crate::ids::{hash_secret, now_ms};

const HOUR_MS: i64 = 3600 * 1000;

/// Takes one mail of `kind` from `address`'s hourly quota, in a transaction
/// of its own; false when it is used up. The key holds the address's hash,
/// never the address.
pub async fn take_hourly(db: &Db, kind: &str, address: &str, per_hour: u32) -> AppResult<bool> {
    let mut tx = db.begin_write().await?;
    let key = format!("{kind}:{}", hash_secret(address));
    let taken = take(&mut tx, &key, per_hour, HOUR_MS).await?;
    tx.commit().await?;
    Ok(taken)
}

/// Takes one mail of the quota `key` (at most `limit` per window of
/// `window_ms` from the first); false when it is used up.
pub async fn take(tx: &mut Tx, key: &str, limit: u32, window_ms: i64) -> AppResult<bool> {
    if limit == 0 {
        return Ok(false);
    }
    let now = now_ms();
    // Ended windows go first, so the table holds only live quotas.
    sqlx::query("DELETE FROM mail_quotas WHERE window_ends_at <= $1")
        .bind(now)
        .execute(&mut **tx)
        .await?;
    // The update's WHERE makes a used-up quota return no row.
    let taken = sqlx::query(
        "INSERT INTO mail_quotas (quota_key, sent, window_ends_at) VALUES ($1, 1, $2) \
         ON CONFLICT (quota_key) DO UPDATE SET sent = mail_quotas.sent + 1 \
         WHERE mail_quotas.sent < $3 RETURNING sent",
    )
    .bind(key)
    .bind(now + window_ms)
    .bind(i64::from(limit))
    .fetch_optional(&mut **tx)
    .await?;
    Ok(taken.is_some())
}
