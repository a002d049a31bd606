//! Commits scheduler steps on a merchant stream. Used by the merchant actor
//! (after commands and while a test clock plays out) and by the background
//! scheduler job; both take the stream's `seq` lock, so whichever runs
//! first plays a day and the other finds it done.

use protocol::{Change, Mode, Role};

use super::messages::StreamKey;
use super::outside::{append_delta, take_seq};
use crate::domain::clock::BusinessClock;
use crate::domain::{Scope, collections};
use crate::error::AppResult;
use crate::store::Db;

/// The scheduler acts as nobody in particular.
pub const SCHEDULER_USER: &str = "scheduler";

pub struct Committed {
    /// The delta this step committed, if anything changed.
    pub delta: Option<(u64, Vec<Change>)>,
    pub more: bool,
}

pub async fn commit_next_day(
    db: &Db,
    key: &StreamKey,
    clock: BusinessClock,
) -> AppResult<Committed> {
    let scope = Scope {
        merchant_id: key.merchant_id.clone(),
        mode: key.mode,
        user_id: SCHEDULER_USER.into(),
        role: Role::Owner,
        clock,
    };
    let mut tx = db.begin_write().await?;
    let seq = take_seq(&mut tx, key).await?;
    let step = collections::play_next_day(&mut tx, &scope).await?;
    if step.changes.is_empty() {
        // Nothing happened: the seq taken above is given back with the rollback.
        tx.rollback().await?;
        return Ok(Committed {
            delta: None,
            more: step.more,
        });
    }
    append_delta(&mut tx, db, key, seq, &step.changes).await?;
    tx.commit().await?;
    Ok(Committed {
        delta: Some((seq, step.changes)),
        more: step.more,
    })
}

/// Catches a stream up to its today; returns the last committed `seq`.
pub async fn catch_up(db: &Db, key: &StreamKey, clock: BusinessClock) -> AppResult<Option<u64>> {
    let mut last = None;
    // A stream far behind (a server down for a year) catches up over several rounds.
    for _ in 0..400 {
        let step = commit_next_day(db, key, clock).await?;
        if let Some((seq, _)) = step.delta {
            last = Some(seq);
        }
        if !step.more {
            break;
        }
    }
    Ok(last)
}

pub fn stream(merchant_id: String, mode: Mode) -> StreamKey {
    StreamKey { merchant_id, mode }
}
