//! Commits scheduler steps on a merchant stream. Used by the merchant actor
//! (after commands and while a test clock plays out) and by the background
//! scheduler job; both take the stream's `seq` lock, so whichever runs
//! first plays a day and the other finds it done.

use protocol::{Access, Change, Permissions, Role};

use paydesk::domain::clock::BusinessClock;
use paydesk::domain::commerce::checkout;
use paydesk::domain::{Scope, collections, e_mandate_signing};
use paydesk::error::AppResult;
use paydesk::store::stream::{self, Actor, Cause, StreamKey, Work};
use paydesk::store::{Db, Tx};

/// The scheduler acts as nobody in particular.
pub const SCHEDULER_USER: &str = "scheduler";

/// Scheduled card charges one step makes before it plays its day.
const MAX_CARD_CHARGES_PER_STEP: usize = 500;

pub struct Committed {
    /// The last delta this step committed, if anything changed (earlier
    /// ones of the step are read back from the stream by their `seq`).
    pub delta: Option<(u64, Vec<Change>)>,
    pub more: bool,
}

pub async fn commit_next_day(
    db: &Db,
    key: &StreamKey,
    clock: BusinessClock,
    origin: &str,
) -> AppResult<Committed> {
    let scope = Scope {
        merchant_id: key.merchant_id.clone(),
        mode: key.mode,
        user_id: SCHEDULER_USER.into(),
        role: Role::Owner,
        permissions: Permissions::all(Access::Write),
        clock,
        // Mail about scheduled card charges links to the payer's page.
        origin: origin.to_string(),
    };
    // DebiCheck signings past their approval window close as no reply.
    let closed = e_mandate_signing::close_unanswered(db, clock, key).await?;
    // Pay-page orders left at the 3-D Secure or bank step past its expiry
    // are abandoned.
    let abandoned = checkout::abandon_expired(db, clock, key).await?;
    let cause = Cause::background(Actor::Scheduler);
    // Each scheduled card charge of the coming date is an event of its own,
    // before the day's: a bounded number per step, the rest on the next.
    let mut last = abandoned.or(closed);
    for _ in 0..MAX_CARD_CHARGES_PER_STEP {
        let written = stream::write(db, key, &cause, async |tx: &mut Tx, _seq| {
            let changes = collections::charge_next_due_card(tx, &scope).await?;
            Ok(if changes.is_empty() {
                Work::Unchanged(false)
            } else {
                Work::changed(changes, true)
            })
        })
        .await?;
        if let Some(delta) = written.delta() {
            last = Some(delta);
        }
        if !written.value {
            break;
        }
    }
    let written = stream::write(db, key, &cause, async |tx: &mut Tx, _seq| {
        let step = collections::play_next_day(tx, &scope).await?;
        Ok(if step.changes.is_empty() {
            Work::Unchanged(step.more)
        } else {
            Work::changed(step.changes, step.more)
        })
    })
    .await?;
    Ok(Committed {
        delta: written.delta().or(last),
        more: written.value,
    })
}

/// Catches a stream up to its today; returns the last committed `seq`.
pub async fn catch_up(
    db: &Db,
    key: &StreamKey,
    clock: BusinessClock,
    origin: &str,
) -> AppResult<Option<u64>> {
    let mut last = None;
    // A stream far behind (a server down for a year) catches up over several rounds.
    for _ in 0..400 {
        let step = commit_next_day(db, key, clock, origin).await?;
        if let Some((seq, _)) = step.delta {
            last = Some(seq);
        }
        if !step.more {
            break;
        }
    }
    Ok(last)
}
