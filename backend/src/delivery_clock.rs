//! The clock webhook deliveries are timed by. Configuration hands it to the
//! delivery job; tests move it ahead.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use paydesk::ids::now_ms;

/// The delivery job's clock: the real time, moved ahead by tests so retries
/// that wait minutes or hours happen at once.
#[derive(Clone, Debug, Default)]
pub struct DeliveryClock {
    ahead_ms: Arc<AtomicI64>,
}

impl DeliveryClock {
    pub fn now(&self) -> i64 {
        now_ms() + self.ahead_ms.load(Ordering::Relaxed)
    }

    /// Moves this clock `ms` further ahead of the real time.
    pub fn advance(&self, ms: i64) {
        self.ahead_ms.fetch_add(ms, Ordering::Relaxed);
    }
}
