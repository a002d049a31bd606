//! Counts failures per client address (sign-in, sign-up, recovery, account
//! secrets) over a window, in memory. A node restart forgets the counts,
//! which only loosens the limit for one window. Failures per account live in
//! the database (`domain::sign_in`), so that a lockout holds on every node
//! and a password reset lifts it on every node.

use std::time::Duration;

use moka::sync::Cache;

/// Counts expire this long after the last failure.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

pub struct Throttle {
    failures: Cache<String, u32>,
}

impl Throttle {
    pub fn new() -> Throttle {
        // Bounded so a flood of made-up e-mail addresses cannot grow memory without end.
        Throttle {
            failures: Cache::builder()
                .max_capacity(100_000)
                .time_to_live(WINDOW)
                .build(),
        }
    }

    pub fn is_blocked(&self, key: &str, limit: u32) -> bool {
        self.failures.get(key).is_some_and(|count| count >= limit)
    }

    /// Counts a failure; returns how many there are now in the window.
    pub fn record_failure(&self, key: &str) -> u32 {
        let count = self.failures.get(key).unwrap_or(0).saturating_add(1);
        self.failures.insert(key.to_string(), count);
        count
    }

    pub fn clear(&self, key: &str) {
        self.failures.invalidate(key);
    }
}

impl Default for Throttle {
    fn default() -> Self {
        Throttle::new()
    }
}
