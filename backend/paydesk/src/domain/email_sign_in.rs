//! Signing in by a link mailed to the account's address, instead of a
//! password (NextAuth's e-mail provider). The link works once, for 24 hours,
//! for the address it was sent to; only its hash is kept. A user with
//! two-factor sign-in still gives a code after following it.

use super::mail::Template;
use super::recovery::mail_link_to_account;
use crate::error::AppResult;
use crate::store::links::{self, Purpose};
use crate::store::{Db, accounts, mail_quotas};

/// How long a sign-in link works.
pub const LINK_SECONDS: i64 = 24 * 3600;
/// Sign-in mails one address may be sent in an hour, whoever asks.
pub const MAILS_PER_HOUR: u32 = 3;

/// Takes one sign-in mail from `email`'s hourly quota; false when used up.
/// Taken for every address asked for, with an account or not, so neither the
/// answer nor its timing tells whether an account exists.
pub async fn take_quota(db: &Db, email: &str) -> AppResult<bool> {
    mail_quotas::take_hourly(db, "sign_in", email, MAILS_PER_HOUR).await
}

/// Where the mailed link points: the callback on this server's public
/// origin, never the request's Host, with the page to land on after.
pub struct LinkTarget<'a> {
    pub public_origin: &'a str,
    /// `{base}/callback/email`.
    pub callback_path: &'a str,
    /// A path on this origin, already checked.
    pub then: &'a str,
}

/// Queues a sign-in link to `email` if it has an account; an earlier
/// unused link of the account stops working.
pub async fn send_link(db: &Db, email: &str, target: &LinkTarget<'_>) -> AppResult<()> {
    let link = |token: &str, address: &str| {
        let query = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("token", token)
            .append_pair("email", address)
            .append_pair("callbackUrl", target.then)
            .finish();
        let origin = target.public_origin.trim_end_matches('/');
        format!("{origin}{}?{query}", target.callback_path)
    };
    let sign_in = (Purpose::SignIn, LINK_SECONDS);
    mail_link_to_account(db, email, sign_in, Template::SignInLink, link).await
}

/// The user a link would sign in, if it still works and was sent to
/// `email`; nothing is used up.
pub async fn holder(db: &Db, token: &str, email: &str) -> AppResult<Option<String>> {
    Ok(links::link_holder(db, token, Purpose::SignIn)
        .await?
        .filter(|(_, sent_to)| sent_to.eq_ignore_ascii_case(email.trim()))
        .map(|(user_id, _)| user_id))
}

/// Uses the link up and answers with its user, when it still works and was
/// sent to `email` (a link for another address is left as it was). Following
/// it proves the address: it is marked verified in the same transaction.
pub async fn use_link(db: &Db, token: &str, email: &str) -> AppResult<Option<String>> {
    let mut tx = db.begin_write().await?;
    let Some((user_id, sent_to)) = links::use_link(&mut tx, token, Purpose::SignIn).await? else {
        return Ok(None);
    };
    if !sent_to.eq_ignore_ascii_case(email.trim()) {
        // Dropped uncommitted: the link still works for its own address.
        return Ok(None);
    }
    accounts::verify_email(&mut tx, &user_id, &sent_to).await?;
    tx.commit().await?;
    Ok(Some(user_id))
}
