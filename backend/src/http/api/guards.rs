//! Per-token limits of the machine API, held in this node's memory: a token
//! bucket per token (requests per minute, refilled evenly), and the
//! idempotency keys of writes still running, so a second request with the
//! same key while the first runs is answered a conflict.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
pub struct ApiGuards {
    buckets: Mutex<HashMap<String, Bucket>>,
    running: Arc<Mutex<HashSet<String>>>,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding it leaves a map that is still consistent.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ApiGuards {
    /// Takes one request from the token's bucket; `Err` says how long until
    /// one is free.
    pub fn take(&self, token_id: &str, per_minute: u32, now: Instant) -> Result<(), Duration> {
        let per_minute = f64::from(per_minute.max(1));
        let per_second = per_minute / 60.0;
        let mut buckets = lock(&self.buckets);
        let bucket = buckets.entry(token_id.to_string()).or_insert(Bucket {
            tokens: per_minute,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * per_second).min(per_minute);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - bucket.tokens) / per_second;
            Err(Duration::from_secs_f64(wait.max(0.001)))
        }
    }

    /// Marks a write's key as running; `None` when it already is. The key
    /// is freed when the returned guard is dropped, however the request ends.
    pub fn start(&self, key: &str) -> Option<Running> {
        if !lock(&self.running).insert(key.to_string()) {
            return None;
        }
        Some(Running {
            key: key.to_string(),
            running: Arc::clone(&self.running),
        })
    }
}

pub struct Running {
    key: String,
    running: Arc<Mutex<HashSet<String>>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        lock(&self.running).remove(&self.key);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_refills_evenly_and_says_how_long_to_wait() {
        let guards = ApiGuards::default();
        let start = Instant::now();
        assert!(guards.take("t", 2, start).is_ok());
        assert!(guards.take("t", 2, start).is_ok());
        let wait = guards.take("t", 2, start).unwrap_err();
        assert!(wait <= Duration::from_secs(30) && wait > Duration::from_secs(29));
        assert!(guards.take("t", 2, start + Duration::from_secs(30)).is_ok());
        assert!(guards.take("other", 2, start).is_ok());
    }

    #[test]
    fn a_running_key_refuses_a_second_until_done() {
        let guards = ApiGuards::default();
        let first = guards.start("k");
        assert!(first.is_some());
        assert!(guards.start("k").is_none());
        drop(first);
        assert!(guards.start("k").is_some());
    }
}
