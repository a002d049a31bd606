//! The durable mail outbox: a message is queued in the same transaction as
//! the change that causes it, and a worker delivers it with retries.
//!
//! Bodies carry live links (password reset, e-mail verification, team
//! invites), so they are never written in clear: each body is sealed under
//! the outbox's key (a sub-key of the server key) with the message id as
//! associated data, and opened only by the worker that sends it. The outbox
//! keeps even the sealed bodies only while delivery needs them: the update
//! that records a message sent, or abandons it after its last attempt,
//! empties them. What stays is who it went to, the subject, when, and the
//! last error.

use std::sync::OnceLock;

use sqlx::Row;

use super::{Db, Tx};
use crate::auth::sealed::SecretBox;
use crate::error::AppResult;
use crate::ids::{new_id, now_ms};

static SEALER: OnceLock<SecretBox> = OnceLock::new();

/// Sets the key the outbox seals bodies with, once per process (the server
/// does so at start, from the server key, so every node of a database
/// opens what any other sealed). Every writer of the outbox calls
/// `enqueue` with a transaction and nothing else, which is why the key is
/// the process's and not an argument. A later call keeps the first key:
/// what this process sealed, it opens.
pub fn install_sealer(sealer: SecretBox) {
    let _ = SEALER.set(sealer);
}

/// The installed key; a process that never installed one (a unit test, a
/// command-line tool) seals under a random key of its own, so it still
/// writes no link in clear.
fn sealer() -> &'static SecretBox {
    SEALER.get_or_init(|| {
        let mut key = [0u8; 32];
        // With no randomness the key stays zero: still no body in clear.
        let _ = getrandom::fill(&mut key);
        SecretBox::new(key)
    })
}

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
    let id = new_id("mail");
    let text = sealer().seal(&id, &mail.text)?;
    let html = sealer().seal(&id, &mail.html)?;
    sqlx::query(
        "INSERT INTO mail_outbox (id, to_address, subject, text_body, html_body, attempts, next_attempt_at, sent_at, last_error, created_at) \
         VALUES ($1, $2, $3, $4, $5, 0, $6, NULL, NULL, $6)",
    )
    .bind(&id)
    .bind(&mail.to)
    .bind(&mail.subject)
    .bind(&text)
    .bind(&html)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Claims due messages by pushing their next attempt `lease_ms` ahead, in
/// one statement: no two workers (or nodes) send the same message at once,
/// and a worker that dies mid-send leaves it to be taken again when the
/// lease ends. On PostgreSQL claimed rows are skipped, not waited on.
pub async fn claim_due(db: &Db, limit: i64, lease_ms: i64) -> AppResult<Vec<QueuedMail>> {
    let now = now_ms();
    let sql = format!(
        "UPDATE mail_outbox SET next_attempt_at = $2 WHERE id IN (\
         SELECT id FROM mail_outbox \
         WHERE sent_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= $1 \
         ORDER BY next_attempt_at LIMIT $3{}) \
         RETURNING id, to_address, subject, text_body, html_body, attempts",
        db.backend.skip_locked()
    );
    let mut tx = db.begin_write().await?;
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(now)
        .bind(now + lease_ms)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
    tx.commit().await?;
    let mut claimed = Vec::with_capacity(rows.len());
    for row in rows {
        let id: String = row.get("id");
        let to: String = row.get("to_address");
        let subject: String = row.get("subject");
        let bodies = (
            sealer().open(&id, &row.get::<String, _>("text_body")),
            sealer().open(&id, &row.get::<String, _>("html_body")),
        );
        let (Ok(text), Ok(html)) = bodies else {
            // Sealed under another key: no attempt could ever send it.
            abandon(db, &id, "the message was sealed under another key").await?;
            continue;
        };
        claimed.push(QueuedMail {
            id,
            attempts: row.get("attempts"),
            mail: OutgoingMail {
                to,
                subject,
                text,
                html,
            },
        });
    }
    Ok(claimed)
}

/// Records delivery and forgets the bodies, in one update.
/// Mail not yet sent nor given up on, on every node: the outbox's depth
/// for the operator's metrics.
pub async fn pending_count(db: &Db) -> AppResult<i64> {
    let count = sqlx::query_scalar(
        "SELECT COUNT(*) FROM mail_outbox WHERE sent_at IS NULL AND abandoned_at IS NULL",
    )
    .fetch_one(&db.pool)
    .await?;
    Ok(count)
}

pub async fn mark_sent(db: &Db, id: &str) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "UPDATE mail_outbox SET sent_at = $2, attempts = attempts + 1, last_error = NULL, \
         text_body = '', html_body = '' WHERE id = $1",
    )
    .bind(id)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
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

/// Gives a message up after its last failed attempt: it is never tried
/// again, and its bodies are forgotten (the recipient can ask for a new
/// link; an engineer still sees who, what and why).
pub async fn abandon(db: &Db, id: &str, error: &str) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, abandoned_at = $3, \
         text_body = '', html_body = '' WHERE id = $1 AND sent_at IS NULL",
    )
    .bind(id)
    .bind(error.chars().take(500).collect::<String>())
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    async fn scratch() -> (Db, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/mail.db", dir.path().display()))
            .await
            .unwrap();
        db.migrate().await.unwrap();
        (db, dir)
    }

    async fn queue(db: &Db, link: &str) -> QueuedMail {
        let mut tx = db.begin_write().await.unwrap();
        enqueue(
            &mut tx,
            &OutgoingMail {
                to: "a@example.co.za".into(),
                subject: "Reset".into(),
                text: format!("Open {link}"),
                html: format!("<a href=\"{link}\">Open</a>"),
            },
        )
        .await
        .unwrap();
        tx.commit().await.unwrap();
        let mut claimed = claim_due(db, 10, 60_000).await.unwrap();
        assert_eq!(claimed.len(), 1);
        claimed.remove(0)
    }

    async fn row(db: &Db, id: &str) -> (String, String, String, Option<i64>, Option<i64>) {
        let r = sqlx::query("SELECT subject, text_body, html_body, sent_at, abandoned_at FROM mail_outbox WHERE id = $1")
            .bind(id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4))
    }

    #[tokio::test]
    async fn sent_and_abandoned_messages_keep_no_body() {
        let (db, _dir) = scratch().await;
        let sent = queue(&db, "https://x.test/auth/reset/secret-one").await;
        assert!(sent.mail.text.contains("secret-one"), "opened to send");
        let (_, text, html, _, _) = row(&db, &sent.id).await;
        assert!(
            SecretBox::is_sealed(&text) && SecretBox::is_sealed(&html),
            "kept sealed until delivered"
        );
        assert!(!text.contains("secret-one") && !html.contains("secret-one"));
        mark_sent(&db, &sent.id).await.unwrap();
        let (subject, text, html, sent_at, _) = row(&db, &sent.id).await;
        assert_eq!(
            (subject.as_str(), text.as_str(), html.as_str()),
            ("Reset", "", "")
        );
        assert!(sent_at.is_some());

        let failing = queue(&db, "https://x.test/auth/reset/secret-two").await;
        mark_failed(&db, &failing.id, "refused", 0).await.unwrap();
        let kept = row(&db, &failing.id).await.1;
        assert!(
            SecretBox::is_sealed(&kept) && !kept.contains("secret-two"),
            "kept sealed for the retry"
        );
        let retried = claim_due(&db, 10, 60_000).await.unwrap();
        assert_eq!(retried.len(), 1);
        abandon(&db, &failing.id, "refused for good").await.unwrap();
        let (_, text, html, sent_at, abandoned_at) = row(&db, &failing.id).await;
        assert_eq!((text.as_str(), html.as_str(), sent_at), ("", "", None));
        assert!(abandoned_at.is_some());
        // An abandoned message is never claimed again, even once due.
        let mut tx = db.begin_write().await.unwrap();
        sqlx::query("UPDATE mail_outbox SET next_attempt_at = 0")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        assert!(claim_due(&db, 10, 60_000).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_body_sealed_under_another_key_is_given_up_not_sent() {
        let (db, _dir) = scratch().await;
        let foreign = SecretBox::new([9; 32]);
        let mut tx = db.begin_write().await.unwrap();
        sqlx::query(
            "INSERT INTO mail_outbox (id, to_address, subject, text_body, html_body, attempts, next_attempt_at, sent_at, last_error, created_at) \
             VALUES ('mail_x', 'a@example.co.za', 'Reset', $1, $2, 0, 0, NULL, NULL, 0)",
        )
        .bind(foreign.seal("mail_x", "text").unwrap())
        .bind(foreign.seal("mail_x", "html").unwrap())
        .execute(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
        assert!(claim_due(&db, 10, 60_000).await.unwrap().is_empty());
        let (_, text, _, sent_at, abandoned_at) = row(&db, "mail_x").await;
        assert_eq!((text.as_str(), sent_at), ("", None));
        assert!(abandoned_at.is_some());
    }
}
