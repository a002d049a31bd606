//! Per-token and per-address limits of the machine API, held in this
//! node's memory: a token bucket per token (requests per minute, refilled
//! evenly); a bucket per client address of failed token authentications,
//! with the tokens that did authenticate from there; and the idempotency
//! keys of writes still running, so a second request with the same key
//! while the first runs is answered a conflict.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use moka::sync::Cache;
use paydesk::ids::hash_secret;

pub struct ApiGuards {
    buckets: Mutex<HashMap<String, Bucket>>,
    running: Arc<Mutex<HashSet<String>>>,
    /// Failed authentications per client address. Bounded, so a flood
    /// from many addresses cannot grow memory without end; an entry
    /// untouched for ten minutes is a full bucket anyway.
    failures: Cache<String, Bucket>,
    /// Address and secret (hashed) pairs that authenticated: a valid token
    /// keeps working from an address that is throttled for guessing.
    trusted: Cache<String, ()>,
}

impl Default for ApiGuards {
    fn default() -> ApiGuards {
        ApiGuards {
            buckets: Mutex::default(),
            running: Arc::default(),
            failures: Cache::builder()
                .max_capacity(100_000)
                .time_to_idle(Duration::from_secs(600))
                .build(),
            trusted: Cache::builder()
                .max_capacity(100_000)
                .time_to_idle(Duration::from_secs(3600))
                .build(),
        }
    }
}

#[derive(Clone)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn full(per_minute: f64, now: Instant) -> Bucket {
        Bucket {
            tokens: per_minute,
            at: now,
        }
    }

    /// Refills for the time since it was last looked at.
    fn refill(&mut self, per_minute: f64, now: Instant) {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * per_minute / 60.0).min(per_minute);
        self.at = now;
    }

    /// How long until one is free; none when one is.
    fn wait(&self, per_minute: f64) -> Option<Duration> {
        (self.tokens < 1.0).then(|| {
            let wait = (1.0 - self.tokens) / (per_minute / 60.0);
            Duration::from_secs_f64(wait.max(0.001))
        })
    }
}

/// A wait in whole seconds, rounded up: what `Retry-After` says.
pub fn whole_seconds(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
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
        let mut buckets = lock(&self.buckets);
        let bucket = buckets
            .entry(token_id.to_string())
            .or_insert_with(|| Bucket::full(per_minute, now));
        bucket.refill(per_minute, now);
        match bucket.wait(per_minute) {
            Some(wait) => Err(wait),
            None => {
                bucket.tokens -= 1.0;
                Ok(())
            }
        }
    }

    /// How long `address` must wait before a token not yet seen to work
    /// from there is checked again; none while it has failures left.
    pub fn failures_exhausted(
        &self,
        address: &str,
        per_minute: u32,
        now: Instant,
    ) -> Option<Duration> {
        let per_minute = f64::from(per_minute.max(1));
        let mut bucket = self.failures.get(address)?;
        bucket.refill(per_minute, now);
        bucket.wait(per_minute)
    }

    /// Counts a failed authentication from `address`; `true` when it was
    /// the last one the address had (it is throttled from now on).
    pub fn count_failure(&self, address: &str, per_minute: u32, now: Instant) -> bool {
        // Two failures at once may both read the same count: one is lost,
        // which loosens the limit by one request at most.
        let (_, after) =
            self.take_failures(address, per_minute, now, |tokens| (tokens - 1.0).max(0.0));
        after
    }

    /// Throttles `address` here because its failures on all nodes together
    /// reached the limit (`store::api_token_failures`): its bucket is
    /// emptied, so it waits as if every failure had been on this node.
    /// `true` when it was not throttled here already.
    pub fn exhaust(&self, address: &str, per_minute: u32, now: Instant) -> bool {
        let (before, _) = self.take_failures(address, per_minute, now, |_| 0.0);
        !before
    }

    /// Moves the failures `address` has left by `take`, refilled to `now`
    /// first: whether it was throttled before, and whether it is after.
    fn take_failures(
        &self,
        address: &str,
        per_minute: u32,
        now: Instant,
        take: impl Fn(f64) -> f64,
    ) -> (bool, bool) {
        let per_minute = f64::from(per_minute.max(1));
        let mut bucket = self
            .failures
            .get(address)
            .unwrap_or_else(|| Bucket::full(per_minute, now));
        bucket.refill(per_minute, now);
        let before = bucket.wait(per_minute).is_some();
        bucket.tokens = take(bucket.tokens);
        let after = bucket.wait(per_minute).is_some();
        self.failures.insert(address.to_string(), bucket);
        (before, after)
    }

    fn trust_key(address: &str, secret: &str) -> String {
        format!("{address} {}", hash_secret(secret))
    }

    /// Remembers that `secret` authenticated from `address`.
    pub fn trust(&self, address: &str, secret: &str) {
        self.trusted.insert(Self::trust_key(address, secret), ());
    }

    /// Whether `secret` authenticated from `address` before.
    pub fn trusted(&self, address: &str, secret: &str) -> bool {
        self.trusted.contains_key(&Self::trust_key(address, secret))
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
    fn failures_from_an_address_throttle_it_but_not_trusted_tokens() {
        let guards = ApiGuards::default();
        let start = Instant::now();
        assert_eq!(guards.failures_exhausted("10.0.0.1", 3, start), None);
        assert!(!guards.count_failure("10.0.0.1", 3, start));
        assert!(!guards.count_failure("10.0.0.1", 3, start));
        assert!(
            guards.count_failure("10.0.0.1", 3, start),
            "the third is the last"
        );
        let wait = guards.failures_exhausted("10.0.0.1", 3, start).unwrap();
        assert!(wait > Duration::from_secs(19) && wait <= Duration::from_secs(20));
        assert_eq!(whole_seconds(wait), 20);
        assert_eq!(guards.failures_exhausted("10.0.0.2", 3, start), None);
        assert_eq!(
            guards.failures_exhausted("10.0.0.1", 3, start + Duration::from_secs(20)),
            None,
            "refilled evenly"
        );
        guards.trust("10.0.0.1", "pdk_test_valid");
        assert!(guards.trusted("10.0.0.1", "pdk_test_valid"));
        assert!(!guards.trusted("10.0.0.2", "pdk_test_valid"));
        assert!(!guards.trusted("10.0.0.1", "pdk_test_other"));
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
