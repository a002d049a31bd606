//! Mail telling an account's owner that something happened to the account:
//! what, when and from which client address, and where to get a new
//! password if it was not them. Each is queued in the durable outbox inside
//! the transaction of the change it reports, so it goes out exactly when
//! the change holds.

use super::mail::{Notice, compose_notice};
use crate::error::AppResult;
use crate::ids::now_ms;
use crate::store::accounts::Account;
use crate::store::users::Recipient;
use crate::store::{Tx, mail, mail_quotas};

/// Where a change came from, and where mail links to.
pub struct Happened<'a> {
    /// The client's address (the TCP peer), shown to the owner.
    pub address: &'a str,
    /// The server's public origin: the reset page's link is built from it.
    pub public_origin: &'a str,
}

/// Second-factor warnings go out at most once per account in this window,
/// so a flood of wrong codes cannot flood the inbox (the mail says "once an
/// hour": keep the two in step).
pub const SECOND_FACTOR_WARNING_WINDOW_MS: i64 = 3600 * 1000;

pub fn recipient(account: &Account) -> Recipient {
    Recipient {
        id: account.id.clone(),
        name: account.name.clone(),
        email: account.email.clone(),
        language: account.language,
    }
}

/// Queues `notice` to the owner. The link is the page where a new password
/// can be asked for, never a secret link: the mail may be read by others.
pub async fn notify(
    tx: &mut Tx,
    owner: &Recipient,
    notice: Notice,
    happened: &Happened<'_>,
) -> AppResult<()> {
    let reset_page = format!("{}/auth/forgot", happened.public_origin);
    let message = compose_notice(
        notice,
        owner.language,
        &owner.email,
        &owner.name,
        now_ms(),
        happened.address,
        &reset_page,
    );
    mail::enqueue(tx, &message).await
}

/// The right password came with a wrong or used second factor: warns the
/// owner, unless they were warned within the window already.
pub async fn warn_second_factor_failed(
    tx: &mut Tx,
    owner: &Recipient,
    happened: &Happened<'_>,
) -> AppResult<()> {
    let quota = format!("second_factor_failed:{}", owner.id);
    if mail_quotas::take(tx, &quota, 1, SECOND_FACTOR_WARNING_WINDOW_MS).await? {
        notify(tx, owner, Notice::SecondFactorFailed, happened).await?;
    }
    Ok(())
}
