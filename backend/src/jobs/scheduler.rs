//! The background scheduler: every round it plays each stream with
//! collections in play up to its business date, so debits are raised and
//! bank reports arrive even when nobody has the dashboard open. Open tabs
//! hear of it through their merchant actor, as if another node had written.
//!
//! With several nodes on one database each stream is played by the node
//! holding its lease (`store::scheduler_leases`), renewed every round: two
//! nodes never play the same stream at once, and when a node stops, another
//! takes its streams over once their leases run out. (A day is played once
//! even should two nodes ever meet on a stream: each day is written under
//! the stream's `seq` lock and the second finds it done.)

use std::sync::Arc;
use std::time::Duration;

use paydesk::domain::clock::BusinessClock;
use paydesk::error::AppResult;
use paydesk::ids::{new_id, now_ms};
use paydesk::store::stream::StreamKey;
use paydesk::store::{Backend, Db, clocks, scheduler_leases};

use crate::live::registry::MerchantRegistry;
use crate::live::scheduler;

/// One node's scheduler.
pub struct Scheduler {
    pub db: Db,
    pub registry: Arc<MerchantRegistry>,
    pub clock: BusinessClock,
    pub origin: String,
    /// This node, as its leases name it.
    pub holder: String,
    /// How long a claim on a stream lasts without being renewed.
    pub lease: Duration,
}

impl Scheduler {
    /// One round at `now` (milliseconds): claims each stream with
    /// collections in play that no other node holds, and catches it up.
    /// Returns the streams this node played.
    pub async fn round(&self, now: i64) -> AppResult<Vec<StreamKey>> {
        let lease_until = now + self.lease.as_millis() as i64;
        let mut played = Vec::new();
        for (merchant_id, mode) in clocks::streams_with_collections(&self.db).await? {
            let key = StreamKey::new(merchant_id, mode);
            match scheduler_leases::claim(&self.db, &key, &self.holder, now, lease_until).await {
                Ok(true) => {}
                Ok(false) => continue,
                Err(err) => {
                    tracing::error!(error = %err, merchant = %key.merchant_id, "cannot claim a stream to schedule");
                    continue;
                }
            }
            match scheduler::catch_up(&self.db, &key, self.clock, &self.origin).await {
                Ok(Some(seq)) => self.registry.advance(&key, seq),
                Ok(None) => {}
                Err(err) => {
                    tracing::error!(error = %err, merchant = %key.merchant_id, "scheduler round failed")
                }
            }
            played.push(key);
        }
        Ok(played)
    }
}

pub struct SchedulerSettings {
    pub database_url: String,
    pub registry: Arc<MerchantRegistry>,
    pub clock: BusinessClock,
    pub every: Duration,
    pub lease: Duration,
    pub origin: String,
}

pub async fn run_forever(settings: SchedulerSettings) {
    let db = match Db::connect(&settings.database_url).await {
        Ok(db) => db,
        Err(err) => return tracing::error!(error = %err, "scheduler cannot reach the database"),
    };
    // SQLite serves one node: its previous run's leases are its own.
    if db.backend == Backend::Sqlite
        && let Err(err) = scheduler_leases::release_all(&db).await
    {
        tracing::error!(error = %err, "cannot free the scheduler's leases");
    }
    let scheduler = Scheduler {
        db,
        registry: settings.registry,
        clock: settings.clock,
        origin: settings.origin,
        holder: new_id("node"),
        lease: settings.lease,
    };
    loop {
        tokio::time::sleep(settings.every).await;
        let started = std::time::Instant::now();
        if let Err(err) = scheduler.round(now_ms()).await {
            tracing::error!(error = %err, "scheduler cannot list streams");
            continue;
        }
        // The scheduler's lag is `time()` minus this, less the interval:
        // it grows when rounds fail, stall or take longer than the interval.
        metrics::gauge!("paydesk_scheduler_last_round_timestamp_seconds")
            .set(paydesk::ids::now_ms() as f64 / 1000.0);
        metrics::histogram!("paydesk_scheduler_round_seconds")
            .record(started.elapsed().as_secs_f64());
    }
}
