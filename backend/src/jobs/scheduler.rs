//! The background scheduler: every round it plays each stream with
//! collections in play up to its business date, so debits are raised and
//! bank reports arrive even when nobody has the dashboard open. Open tabs
//! hear of it through their merchant actor, as if another node had written.

use std::sync::Arc;
use std::time::Duration;

use paydesk::domain::clock::BusinessClock;
use paydesk::store::stream::StreamKey;
use paydesk::store::{Db, clocks};

use crate::live::registry::MerchantRegistry;
use crate::live::scheduler;

pub async fn run_forever(
    database_url: String,
    registry: Arc<MerchantRegistry>,
    clock: BusinessClock,
    every: Duration,
    origin: String,
) {
    let db = match Db::connect(&database_url).await {
        Ok(db) => db,
        Err(err) => return tracing::error!(error = %err, "scheduler cannot reach the database"),
    };
    loop {
        tokio::time::sleep(every).await;
        let started = std::time::Instant::now();
        let streams = match clocks::streams_with_collections(&db).await {
            Ok(streams) => streams,
            Err(err) => {
                tracing::error!(error = %err, "scheduler cannot list streams");
                continue;
            }
        };
        for (merchant_id, mode) in streams {
            let key = StreamKey::new(merchant_id, mode);
            match scheduler::catch_up(&db, &key, clock, &origin).await {
                Ok(Some(seq)) => registry.advance(&key, seq),
                Ok(None) => {}
                Err(err) => {
                    tracing::error!(error = %err, merchant = %key.merchant_id, "scheduler round failed")
                }
            }
        }
        // The scheduler's lag is `time()` minus this, less the interval:
        // it grows when rounds fail, stall or take longer than the interval.
        metrics::gauge!("paydesk_scheduler_last_round_timestamp_seconds")
            .set(paydesk::ids::now_ms() as f64 / 1000.0);
        metrics::histogram!("paydesk_scheduler_round_seconds")
            .record(started.elapsed().as_secs_f64());
    }
}
