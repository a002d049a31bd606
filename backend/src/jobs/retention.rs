//! The retention job: once per interval, on whichever node claims it, prunes
//! events past `EVENT_RETENTION_DAYS` and command replies past
//! `REPLY_RETENTION_HOURS` (see `paydesk::store::retention`).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use paydesk::ids::{new_id, now_ms};
use paydesk::store::{Db, retention};

/// The name the job is claimed by across nodes.
const JOB: &str = "retention";

/// Rows deleted per transaction: small, so writers never wait long.
const BATCH: i64 = 500;

/// The time pruning judges age by; tests set it to play a window out.
#[derive(Clone, Debug, Default)]
pub struct RetentionClock {
    /// Milliseconds since the epoch to use as now; 0 for the real time.
    fixed_ms: Arc<AtomicI64>,
}

impl RetentionClock {
    pub fn now(&self) -> i64 {
        match self.fixed_ms.load(Ordering::Relaxed) {
            0 => now_ms(),
            fixed => fixed,
        }
    }

    /// Makes `ms` (milliseconds since the epoch) this clock's now.
    pub fn set(&self, ms: i64) {
        self.fixed_ms.store(ms, Ordering::Relaxed);
    }
}

#[derive(Clone, Debug)]
pub struct RetentionSettings {
    pub database_url: String,
    pub event_retention: Duration,
    pub reply_retention: Duration,
    pub every: Duration,
    pub clock: RetentionClock,
}

/// Runs until the server stops.
pub async fn prune_forever(settings: RetentionSettings) {
    let db = match Db::connect(&settings.database_url).await {
        Ok(db) => db,
        Err(err) => return tracing::error!(error = %err, "retention job cannot reach the database"),
    };
    let holder = new_id("node");
    loop {
        tokio::time::sleep(settings.every).await;
        if let Err(err) = prune_once(&db, &settings, &holder).await {
            tracing::error!(error = %err, "pruning old events failed");
        }
    }
}

/// One round: claims the job (held a little longer than the interval, so
/// the holder keeps it while it runs) and prunes.
async fn prune_once(
    db: &Db,
    settings: &RetentionSettings,
    holder: &str,
) -> paydesk::error::AppResult<()> {
    let now = settings.clock.now();
    let lease_until = now + settings.every.as_millis() as i64 * 2;
    if !retention::claim_job(db, JOB, holder, now, lease_until).await? {
        return Ok(());
    }
    let events =
        retention::prune_events(db, now - settings.event_retention.as_millis() as i64, BATCH)
            .await?;
    let replies =
        retention::prune_replies(db, now - settings.reply_retention.as_millis() as i64, BATCH)
            .await?;
    if events + replies > 0 {
        tracing::info!(events, replies, "pruned past their retention");
    }
    metrics::counter!("paydesk_pruned_events_total").increment(events);
    metrics::counter!("paydesk_pruned_replies_total").increment(replies);
    Ok(())
}
