//! Failed sign-ins per account and the lockout they lead to. The count is
//! kept in the database, so every node refuses a locked account alike and a
//! replaced password lifts the lock on every node. The owner hears of a
//! lockout once, when it starts.

use super::mail::Notice;
use super::notices::{Happened, notify, warn_second_factor_failed};
use crate::auth::throttle::WINDOW;
use crate::error::AppResult;
use crate::store::history::{self, AccountEvent};
use crate::store::users::{self, Recipient};
use crate::store::{Db, Tx, signin_failures};
use protocol::{HistoryAction, HistoryEntry};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    WrongPassword,
    /// The right password with a wrong or used code or backup code.
    WrongSecondFactor,
}

fn window_ms() -> i64 {
    WINDOW.as_millis() as i64
}

/// Failures of `email` in the window: at the limit, sign-in is refused.
pub async fn recent_failures(db: &Db, email: &str) -> AppResult<u32> {
    signin_failures::recent_failures(db, email, window_ms()).await
}

/// Counts a failed sign-in of `email` (with or without an account, alike)
/// and returns the count, with the history entry to announce when the
/// address has an account. The failure that reaches `limit` starts the
/// lockout and mails the owner; a wrong second factor warns them too.
pub async fn record_failure(
    db: &Db,
    email: &str,
    failure: Failure,
    limit: u32,
    happened: &Happened<'_>,
    user_agent: &str,
) -> AppResult<(u32, Option<HistoryEntry>)> {
    let mut tx = db.begin_write().await?;
    let failures = signin_failures::record_failure(&mut tx, email, window_ms()).await?;
    let mut entry = None;
    if let Some(owner) = users::find_recipient_by_email(&mut tx, email).await? {
        // An address with no account has no history to show it in.
        let recorded = history::record_account(
            &mut tx,
            &AccountEvent {
                user_id: &owner.id,
                action: HistoryAction::SignInFailed,
                address: Some(happened.address),
                user_agent: Some(user_agent),
            },
        )
        .await?;
        entry = Some(recorded);
        // Exactly one failure sees the count reach the limit: once per lockout.
        if failures == limit {
            notify(&mut tx, &owner, Notice::SignInLocked { failures }, happened).await?;
        }
        if failure == Failure::WrongSecondFactor {
            warn_second_factor_failed(&mut tx, &owner, happened).await?;
        }
    }
    tx.commit().await?;
    Ok((failures, entry))
}

/// After a good sign-in the count starts again.
pub async fn forget_failures(db: &Db, email: &str) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    signin_failures::clear(&mut tx, email).await?;
    tx.commit().await?;
    Ok(())
}

/// The password was replaced (reset or changed): the lockout guarded the
/// old one, so it is lifted, and the owner is told.
pub async fn password_replaced(
    tx: &mut Tx,
    owner: &Recipient,
    happened: &Happened<'_>,
) -> AppResult<()> {
    signin_failures::clear(tx, &owner.email).await?;
    notify(tx, owner, Notice::PasswordChanged, happened).await
}
