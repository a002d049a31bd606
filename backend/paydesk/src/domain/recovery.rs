//! Forgotten passwords: the reset link by mail, and the reset itself.

use super::mail::{Template, compose};
use super::notices::Happened;
use super::sign_in::password_replaced;
use crate::error::AppResult;
use crate::store::links::{self, Purpose};
use crate::store::{Db, accounts, mail, mail_quotas, sessions, users};

/// Reset links live three days.
pub const RESET_LINK_SECONDS: i64 = 259_200;
/// Reset mails one e-mail address gets per hour, however many clients ask:
/// the per-client limit alone let many addresses flood one inbox.
pub const RESET_MAILS_PER_HOUR: u32 = 3;

/// Takes one reset mail from `email`'s hourly quota; false when used up.
/// Taken for every address asked for, with an account or not, so neither the
/// answer nor its timing tells whether an account exists.
pub async fn take_reset_quota(db: &Db, email: &str) -> AppResult<bool> {
    mail_quotas::take_hourly(db, "reset_password", email, RESET_MAILS_PER_HOUR).await
}

/// Queues a reset link to `email` if it has an account.
pub async fn send_reset_link(db: &Db, public_origin: &str, email: &str) -> AppResult<()> {
    // Built from the configured public origin, never from the request's Host.
    let link = |token: &str, _: &str| format!("{public_origin}/auth/reset/{token}");
    let reset = (Purpose::ResetPassword, RESET_LINK_SECONDS);
    mail_link_to_account(db, email, reset, Template::ResetPassword, link).await
}

/// Mails the account with the address `email`, if there is one, a new
/// one-time link of `purpose` that works `lifetime_seconds` (an earlier
/// unused one stops working). `link` builds its address from the token and
/// the account's address.
pub(crate) async fn mail_link_to_account(
    db: &Db,
    email: &str,
    (purpose, lifetime_seconds): (Purpose, i64),
    template: Template,
    link: impl FnOnce(&str, &str) -> String,
) -> AppResult<()> {
    let Some(user) = users::find_credentials_by_email(db, email).await? else {
        return Ok(());
    };
    let Some(account) = accounts::find_account(db, &user.id).await? else {
        return Ok(());
    };
    let mut tx = db.begin_write().await?;
    let token = links::create_link(
        &mut tx,
        &account.id,
        purpose,
        &account.email,
        lifetime_seconds,
    )
    .await?;
    let message = compose(
        template,
        account.language,
        &account.email,
        &account.name,
        &account.email,
        &link(&token, &account.email),
    );
    mail::enqueue(&mut tx, &message).await?;
    tx.commit().await?;
    Ok(())
}

/// Sets the new password once per link, signs every session out, lifts a
/// sign-in lockout and tells the owner. Returns the sessions ended, or None
/// when the link is unknown, used or expired.
pub async fn reset_password(
    db: &Db,
    token: &str,
    password_hash: &str,
    happened: &Happened<'_>,
) -> AppResult<Option<Vec<String>>> {
    let mut tx = db.begin_write().await?;
    let Some((user_id, _)) = links::use_link(&mut tx, token, Purpose::ResetPassword).await? else {
        return Ok(None);
    };
    accounts::set_password_hash(&mut tx, &user_id, password_hash).await?;
    let ended = sessions::delete_other_sessions(&mut tx, &user_id, None).await?;
    if let Some(owner) = users::find_recipient(&mut tx, &user_id).await? {
        password_replaced(&mut tx, &owner, happened).await?;
    }
    tx.commit().await?;
    Ok(Some(ended))
}
