//! When a failed delivery is tried again. The schedule (documented in
//! docs/webhooks.md): at once, then after 5 seconds, 5 minutes, 30 minutes,
//! 2 hours, 5 hours, 10 hours, 24 hours and 30 hours: nine attempts over
//! about 71.6 hours (just under 3 days). Each wait is stretched or shrunk
//! by up to a tenth at random, so endpoints that failed together (a
//! receiver's outage) are not all tried again in the same second.

const SECOND: i64 = 1_000;
const MINUTE: i64 = 60 * SECOND;
const HOUR: i64 = 60 * MINUTE;

/// The wait before attempt n+2, after attempt n+1 failed.
pub const RETRY_WAITS_MS: &[i64] = &[
    5 * SECOND,
    5 * MINUTE,
    30 * MINUTE,
    2 * HOUR,
    5 * HOUR,
    10 * HOUR,
    24 * HOUR,
    30 * HOUR,
];

/// Attempts in all, the first included.
pub const MAX_ATTEMPTS: i64 = RETRY_WAITS_MS.len() as i64 + 1;

/// When to try again after `attempts` failed attempts, or none when that
/// was the last. `jitter` is uniform in [-1, 1].
pub fn next_attempt_at(failed_at_ms: i64, attempts: i64, jitter: f64) -> Option<i64> {
    let wait = *RETRY_WAITS_MS.get(usize::try_from(attempts - 1).ok()?)?;
    let spread = (wait as f64 * 0.1 * jitter.clamp(-1.0, 1.0)) as i64;
    Some(failed_at_ms + wait + spread)
}

/// A random number in [-1, 1] for `next_attempt_at`.
pub fn random_jitter() -> f64 {
    let mut bytes = [0u8; 4];
    if getrandom::fill(&mut bytes).is_err() {
        return 0.0;
    }
    f64::from(u32::from_le_bytes(bytes)) / f64::from(u32::MAX) * 2.0 - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_spans_just_under_three_days() {
        let total: i64 = RETRY_WAITS_MS.iter().sum();
        assert!(total <= 72 * HOUR && total > 71 * HOUR, "{total}");
        assert_eq!(next_attempt_at(0, 1, 0.0), Some(5 * SECOND));
        assert_eq!(next_attempt_at(0, 8, 0.0), Some(30 * HOUR));
        assert_eq!(next_attempt_at(0, MAX_ATTEMPTS, 0.0), None);
        assert_eq!(next_attempt_at(0, 2, 1.0), Some(5 * MINUTE + 30 * SECOND));
        assert_eq!(next_attempt_at(0, 2, -1.0), Some(5 * MINUTE - 30 * SECOND));
    }

    #[test]
    fn jitter_stays_in_range() {
        for _ in 0..100 {
            let j = random_jitter();
            assert!((-1.0..=1.0).contains(&j));
        }
    }
}
