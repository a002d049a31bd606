//! The durable mail outbox: a message is queued in the same transaction as
//! the change that causes it, and a worker delivers it with retries.

use sqlx::Row;

use super::{Db, Tx};
use crate::error::AppResult;
use crate::ids::{new_id, now_ms};

pub struct OutgoingMail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

pub struct QueuedMail {
    pub id: String,
    pub attempts: i64,
    pub mail: OutgoingMail,
}

pub async fn enqueue(tx: &mut Tx, mail: &OutgoingMail) -> AppResult<()> {
    let now = now_ms();
    sqlx::query(
        "INSERT INTO mail_outbox (id, to_address, subject, text_body, html_body, attempts, next_attempt_at, sent_at, last_error, created_at) \
         VALUES ($1, $2, $3, $4, $5, 0, $6, NULL, NULL, $6)",
    )
    .bind(new_id("mail"))
    .bind(&mail.to)
    .bind(&mail.subject)
    .bind(&mail.text)
    .bind(&mail.html)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Claims due messages by pushing their next attempt into the future first,
/// so two workers (or nodes) never send the same message at once.
pub async fn claim_due(db: &Db, limit: i64, lease_ms: i64) -> AppResult<Vec<QueuedMail>> {
    let now = now_ms();
    let mut tx = db.begin_write().await?;
    let rows = sqlx::query(
        "SELECT id, to_address, subject, text_body, html_body, attempts FROM mail_outbox \
         WHERE sent_at IS NULL AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&mut *tx)
    .await?;
    let mut claimed = Vec::new();
    for row in rows {
        let id: String = row.get("id");
        let taken = sqlx::query("UPDATE mail_outbox SET next_attempt_at = $2 WHERE id = $1 AND sent_at IS NULL AND next_attempt_at <= $3")
            .bind(&id)
            .bind(now + lease_ms)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        if taken.rows_affected() == 1 {
            claimed.push(QueuedMail {
                id,
                attempts: row.get("attempts"),
                mail: OutgoingMail {
                    to: row.get("to_address"),
                    subject: row.get("subject"),
                    text: row.get("text_body"),
                    html: row.get("html_body"),
                },
            });
        }
    }
    tx.commit().await?;
    Ok(claimed)
}

pub async fn mark_sent(db: &Db, id: &str) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE mail_outbox SET sent_at = $2, attempts = attempts + 1, last_error = NULL WHERE id = $1").bind(id).bind(now_ms()).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(())
}

pub async fn mark_failed(db: &Db, id: &str, error: &str, retry_at: i64) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3 WHERE id = $1")
        .bind(id)
        .bind(error.chars().take(500).collect::<String>())
        .bind(retry_at)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}
