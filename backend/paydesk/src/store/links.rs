//! One-time links (password reset, e-mail verification). The token goes out
//! in the mail; only its hash is stored.

use sqlx::Row;

use super::{Db, Tx};
use crate::error::AppResult;
use crate::ids::{hash_secret, new_secret, now_ms};

#[derive(Clone, Copy)]
pub enum Purpose {
    ResetPassword,
    VerifyEmail,
    /// A sign-in link mailed instead of a password (`{base}/signin/email`).
    SignIn,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::ResetPassword => "reset_password",
            Purpose::VerifyEmail => "verify_email",
            Purpose::SignIn => "sign_in",
        }
    }
}

/// Creates a link token for `email` valid `lifetime_seconds`; earlier unused
/// links of the same purpose stop working.
pub async fn create_link(
    tx: &mut Tx,
    user_id: &str,
    purpose: Purpose,
    email: &str,
    lifetime_seconds: i64,
) -> AppResult<String> {
    let now = now_ms();
    sqlx::query("UPDATE auth_links SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL")
        .bind(user_id)
        .bind(purpose.as_str())
        .bind(now)
        .execute(&mut **tx)
        .await?;
    let token = new_secret();
    sqlx::query(
        "INSERT INTO auth_links (token_hash, user_id, purpose, email, expires_at, used_at, created_at) VALUES ($1, $2, $3, $4, $5, NULL, $6)",
    )
    .bind(hash_secret(&token))
    .bind(user_id)
    .bind(purpose.as_str())
    .bind(email)
    .bind(now + lifetime_seconds * 1000)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(token)
}

/// Uses up a link: the user and e-mail it was made for, if it is unused and
/// unexpired. Works once, also when two requests race.
/// Whether a link would still work, without using it: for a page that
/// asks for more (a new password) before it uses the link.
pub async fn link_works(db: &Db, token: &str, purpose: Purpose) -> AppResult<bool> {
    let found = sqlx::query(
        "SELECT 1 FROM auth_links WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3",
    )
    .bind(hash_secret(token))
    .bind(purpose.as_str())
    .bind(now_ms())
    .fetch_optional(&db.pool)
    .await?;
    Ok(found.is_some())
}

/// The user and e-mail of a link that would still work, without using it.
pub async fn link_holder(
    db: &Db,
    token: &str,
    purpose: Purpose,
) -> AppResult<Option<(String, String)>> {
    let row = sqlx::query(
        "SELECT user_id, email FROM auth_links WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3",
    )
    .bind(hash_secret(token))
    .bind(purpose.as_str())
    .bind(now_ms())
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| (r.get("user_id"), r.get("email"))))
}

pub async fn use_link(
    tx: &mut Tx,
    token: &str,
    purpose: Purpose,
) -> AppResult<Option<(String, String)>> {
    let now = now_ms();
    let row = sqlx::query(
        "UPDATE auth_links SET used_at = $3 WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 \
         RETURNING user_id, email",
    )
    .bind(hash_secret(token))
    .bind(purpose.as_str())
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|r| (r.get("user_id"), r.get("email"))))
}
