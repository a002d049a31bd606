//! A user's own account: profile, password, e-mail verification, two-factor
//! secrets and backup codes.

use protocol::Language;
use sqlx::Row;

use super::{Db, Tx};
use crate::error::AppResult;
use crate::ids::now_ms;

pub struct Account {
    pub id: String,
    pub name: String,
    pub email: String,
    pub password_hash: String,
    pub email_verified: bool,
    pub pending_email: Option<String>,
    pub language: Language,
    /// Sealed (`auth::sealed`): open with the server's keys before use.
    pub totp_secret: Option<String>,
    /// Sealed, like `totp_secret`.
    pub totp_pending_secret: Option<String>,
    pub totp_last_step: i64,
}

pub async fn find_account(db: &Db, user_id: &str) -> AppResult<Option<Account>> {
    let row = sqlx::query(
        "SELECT id, name, email, password_hash, email_verified_at, pending_email, language, totp_secret, \
         totp_pending_secret, totp_last_step FROM users WHERE id = $1",
    )
    .bind(user_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| {
        let verified: Option<i64> = r.get("email_verified_at");
        let language: String = r.get("language");
        Account {
            id: r.get("id"),
            name: r.get("name"),
            email: r.get("email"),
            password_hash: r.get("password_hash"),
            email_verified: verified.is_some(),
            pending_email: r.get("pending_email"),
            language: Language::parse(&language).unwrap_or_default(),
            totp_secret: r.get("totp_secret"),
            totp_pending_secret: r.get("totp_pending_secret"),
            totp_last_step: r.get("totp_last_step"),
        }
    }))
}

/// Saves a user's language, and their name unless `name` is `None` (the
/// header's language switch leaves the name as it is).
pub async fn update_profile(
    db: &Db,
    user_id: &str,
    name: Option<&str>,
    language: Language,
) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE users SET name = COALESCE($2, name), language = $3 WHERE id = $1")
        .bind(user_id)
        .bind(name)
        .bind(language.as_str())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

pub async fn set_password_hash(tx: &mut Tx, user_id: &str, password_hash: &str) -> AppResult<()> {
    sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
        .bind(user_id)
        .bind(password_hash)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn set_pending_email(tx: &mut Tx, user_id: &str, email: Option<&str>) -> AppResult<()> {
    sqlx::query("UPDATE users SET pending_email = $2 WHERE id = $1")
        .bind(user_id)
        .bind(email)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Marks `email` verified for the user: the current address, or a pending
/// new one, which then replaces the current. False when the address was
/// taken by another account meanwhile.
pub async fn verify_email(tx: &mut Tx, user_id: &str, email: &str) -> AppResult<bool> {
    let taken = sqlx::query("SELECT 1 FROM users WHERE email = $1 AND id <> $2")
        .bind(email)
        .bind(user_id)
        .fetch_optional(&mut **tx)
        .await?;
    if taken.is_some() {
        return Ok(false);
    }
    let updated = sqlx::query(
        "UPDATE users SET email = $2, pending_email = NULL, email_verified_at = $3 \
         WHERE id = $1 AND (email = $2 OR pending_email = $2)",
    )
    .bind(user_id)
    .bind(email)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(updated.rows_affected() == 1)
}

pub async fn set_pending_totp(db: &Db, user_id: &str, secret: Option<&str>) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE users SET totp_pending_secret = $2 WHERE id = $1")
        .bind(user_id)
        .bind(secret)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Turns two-factor on with the confirmed secret, or off with None.
pub async fn set_totp(
    tx: &mut Tx,
    user_id: &str,
    secret: Option<&str>,
    step: i64,
) -> AppResult<()> {
    sqlx::query("UPDATE users SET totp_secret = $2, totp_pending_secret = NULL, totp_last_step = $3 WHERE id = $1")
        .bind(user_id)
        .bind(secret)
        .bind(step)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Records `step` as the last accepted one, only if it is newer: two
/// sign-ins racing with the same code cannot both win.
pub async fn accept_totp_step(db: &Db, user_id: &str, step: i64) -> AppResult<bool> {
    let mut tx = db.begin_write().await?;
    let updated =
        sqlx::query("UPDATE users SET totp_last_step = $2 WHERE id = $1 AND totp_last_step < $2")
            .bind(user_id)
            .bind(step)
            .execute(&mut *tx)
            .await?;
    tx.commit().await?;
    Ok(updated.rows_affected() == 1)
}

/// Replaces the user's backup codes with `stored_forms` (their keyed
/// hashes, `auth::backup_codes`).
pub async fn replace_backup_codes(
    tx: &mut Tx,
    user_id: &str,
    stored_forms: &[String],
) -> AppResult<()> {
    sqlx::query("DELETE FROM backup_codes WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    let now = now_ms();
    for stored in stored_forms {
        sqlx::query("INSERT INTO backup_codes (user_id, code_hash, used_at, created_at) VALUES ($1, $2, NULL, $3)")
            .bind(user_id)
            .bind(stored)
            .bind(now)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Uses up the unused backup code stored as one of `candidates` (the forms
/// a typed code may have). The conditional update makes it single-use even
/// when two sign-ins race with the same code.
pub async fn use_backup_code(db: &Db, user_id: &str, candidates: &[String]) -> AppResult<bool> {
    let mut tx = db.begin_write().await?;
    for stored in candidates {
        let updated = sqlx::query("UPDATE backup_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL")
            .bind(user_id)
            .bind(stored)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        if updated.rows_affected() == 1 {
            tx.commit().await?;
            return Ok(true);
        }
    }
    Ok(false)
}

pub async fn backup_codes_left(db: &Db, user_id: &str) -> AppResult<u32> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM backup_codes WHERE user_id = $1 AND used_at IS NULL",
    )
    .bind(user_id)
    .fetch_one(&db.pool)
    .await?;
    Ok(row.get::<i64, _>("n") as u32)
}

/// Whether any merchant the user belongs to requires two-factor sign-in.
pub async fn two_factor_required(db: &Db, user_id: &str) -> AppResult<bool> {
    let row = sqlx::query(
        "SELECT 1 FROM memberships ms JOIN merchants m ON m.id = ms.merchant_id WHERE ms.user_id = $1 AND m.require_two_factor = 1",
    )
    .bind(user_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.is_some())
}

/// What earlier versions stored in weaker forms, for start-up to upgrade:
/// backup-code hashes not starting with `keyed_prefix`, and two-factor
/// secrets (enabled or pending) not starting with `sealed_prefix`.
pub struct WeakSecrets {
    /// (user id, code hash)
    pub backup_codes: Vec<(String, String)>,
    /// (user id, secret, pending secret), either of which may be weak.
    pub totp: Vec<(String, Option<String>, Option<String>)>,
}

pub async fn weak_secrets(
    db: &Db,
    keyed_prefix: &str,
    sealed_prefix: &str,
) -> AppResult<WeakSecrets> {
    let codes = sqlx::query(
        "SELECT user_id, code_hash FROM backup_codes WHERE code_hash NOT LIKE $1 || '%'",
    )
    .bind(keyed_prefix)
    .fetch_all(&db.pool)
    .await?;
    let totp = sqlx::query(
        "SELECT id, totp_secret, totp_pending_secret FROM users \
         WHERE totp_secret NOT LIKE $1 || '%' OR totp_pending_secret NOT LIKE $1 || '%'",
    )
    .bind(sealed_prefix)
    .fetch_all(&db.pool)
    .await?;
    Ok(WeakSecrets {
        backup_codes: codes
            .into_iter()
            .map(|r| (r.get("user_id"), r.get("code_hash")))
            .collect(),
        totp: totp
            .into_iter()
            .map(|r| {
                (
                    r.get("id"),
                    r.get("totp_secret"),
                    r.get("totp_pending_secret"),
                )
            })
            .collect(),
    })
}

/// Replaces one stored backup-code hash, if it is still `old` (another
/// node may have replaced it meanwhile).
pub async fn rewrite_backup_code(db: &Db, user_id: &str, old: &str, new: &str) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE backup_codes SET code_hash = $3 WHERE user_id = $1 AND code_hash = $2")
        .bind(user_id)
        .bind(old)
        .bind(new)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Which of a user's two-factor secrets `rewrite_totp_secret` changes.
#[derive(Clone, Copy)]
pub enum TotpColumn {
    Enabled,
    Pending,
}

/// Replaces a stored two-factor secret, if it is still `old`.
pub async fn rewrite_totp_secret(
    db: &Db,
    user_id: &str,
    column: TotpColumn,
    old: &str,
    new: &str,
) -> AppResult<()> {
    let sql = match column {
        TotpColumn::Enabled => {
            "UPDATE users SET totp_secret = $3 WHERE id = $1 AND totp_secret = $2"
        }
        TotpColumn::Pending => {
            "UPDATE users SET totp_pending_secret = $3 WHERE id = $1 AND totp_pending_secret = $2"
        }
    };
    let mut tx = db.begin_write().await?;
    sqlx::query(sql)
        .bind(user_id)
        .bind(old)
        .bind(new)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}
