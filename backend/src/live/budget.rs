//! How many frames a socket may send: a token bucket, so a burst (a page
//! opening, an upload's chunks) passes and a flood does not.

use std::time::Instant;

pub struct FrameBudget {
    per_second: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl FrameBudget {
    /// Starts full: `burst` frames at once, then `per_second` on average.
    pub fn new(per_second: u32, burst: u32, now: Instant) -> FrameBudget {
        let burst = f64::from(burst.max(1));
        FrameBudget {
            per_second: f64::from(per_second),
            burst,
            tokens: burst,
            last: now,
        }
    }

    /// Spends one frame; false when the budget is used up.
    pub fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_burst_passes_then_the_rate_holds() {
        let start = Instant::now();
        let mut budget = FrameBudget::new(10, 20, start);
        assert!((0..20).all(|_| budget.take(start)));
        assert!(!budget.take(start), "the burst is spent");
        let later = start + Duration::from_millis(500);
        assert!(
            (0..5).all(|_| budget.take(later)),
            "half a second buys five"
        );
        assert!(!budget.take(later));
    }

    #[test]
    fn an_idle_socket_refills_only_up_to_the_burst() {
        let start = Instant::now();
        let mut budget = FrameBudget::new(10, 20, start);
        let much_later = start + Duration::from_secs(3_600);
        assert!((0..20).all(|_| budget.take(much_later)));
        assert!(!budget.take(much_later));
    }
}
