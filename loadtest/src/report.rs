//! The figures of one run, as a short human report or as JSON.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use hdrhistogram::Histogram;
use serde::Serialize;

use crate::recorder::Recorder;

/// Percentiles of one latency, in microseconds.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    pub count: u64,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub max: u64,
}

impl Summary {
    pub fn of(histogram: &Histogram<u64>) -> Summary {
        if histogram.is_empty() {
            return Summary::default();
        }
        Summary {
            count: histogram.len(),
            p50: histogram.value_at_quantile(0.50),
            p90: histogram.value_at_quantile(0.90),
            p99: histogram.value_at_quantile(0.99),
            max: histogram.max(),
        }
    }

    fn line(&self, label: &str) -> String {
        if self.count == 0 {
            return format!("{label:<12} no samples");
        }
        format!(
            "{label:<12} p50 {:>9}  p90 {:>9}  p99 {:>9}  max {:>9}  (n={})",
            micros(self.p50),
            micros(self.p90),
            micros(self.p99),
            micros(self.max),
            self.count
        )
    }
}

/// Why the mutation phase ended.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum StoppedBy {
    Mutations,
    Duration,
    Interrupt,
    /// The caller of the library ended it (`Probe::stop`).
    Caller,
}

/// What a run with `--reconnect` adds: how the sockets came through the
/// server closing them.
#[derive(Serialize, Debug, Clone)]
pub struct Resilience {
    /// Sockets reopened (and welcomed) after the server closed them.
    pub reconnects: u64,
    /// How the server closed them, by close code (`none`: cut without one).
    pub close_codes: BTreeMap<String, u64>,
    /// Resumes the server could not serve (`Resync`): should be 0.
    pub resyncs: u64,
    /// Deltas a socket never received (expected minus received).
    pub deltas_missing: u64,
    /// Deltas a socket received a second time (a seq it had seen).
    pub deltas_duplicated: u64,
    /// Commands sent again under their id after a reconnect.
    pub commands_resent: u64,
    /// Commands whose customer was created under two seqs: committed twice.
    /// (A retry answered with the stored reply has the same seq: not counted.)
    pub commands_committed_twice: u64,
    /// Round trips of the resent commands, from their first send.
    pub resent_round_trip_us: Summary,
}

impl Resilience {
    pub fn of(recorder: &Recorder) -> Resilience {
        let resumed = &recorder.resumed;
        Resilience {
            reconnects: resumed.reconnects,
            close_codes: resumed.close_codes.clone(),
            resyncs: resumed.resyncs,
            deltas_missing: recorder
                .deltas_expected
                .saturating_sub(recorder.deltas_received),
            deltas_duplicated: resumed.deltas_duplicated,
            commands_resent: resumed.commands_resent,
            commands_committed_twice: resumed.commands_committed_twice(),
            resent_round_trip_us: Summary::of(&resumed.resent_round_trip),
        }
    }

    fn clean(&self) -> bool {
        self.resyncs == 0
            && self.deltas_missing == 0
            && self.deltas_duplicated == 0
            && self.commands_committed_twice == 0
    }
}

#[derive(Serialize, Debug, Clone)]
pub struct Report {
    /// The node(s) loaded; sockets are spread over them.
    pub urls: Vec<String>,
    pub run: String,
    pub sockets: usize,
    pub sockets_lost: u64,
    pub merchants: usize,
    pub mutations_sent: u64,
    pub committed: u64,
    pub failures: u64,
    pub failure_codes: BTreeMap<String, u64>,
    pub stopped_by: StoppedBy,
    pub target_rate: f64,
    /// Mutations sent per second over the sending phase.
    pub achieved_rate: f64,
    pub sending_seconds: f64,
    pub round_trip_us: Summary,
    pub delta_us: Summary,
    pub deltas_expected: u64,
    pub deltas_received: u64,
    pub deltas_out_of_order: u64,
    /// Only with `--reconnect`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reconnect: Option<Resilience>,
}

impl Report {
    /// Whether anything went wrong: a failed command, a lost socket, a missing
    /// delta or one out of order.
    pub fn clean(&self) -> bool {
        self.failures == 0
            && self.sockets_lost == 0
            && self.deltas_received >= self.deltas_expected
            && self.deltas_out_of_order == 0
            && self.reconnect.as_ref().is_none_or(Resilience::clean)
    }

    pub fn human(&self) -> String {
        let mut out = String::new();
        let codes = self
            .failure_codes
            .iter()
            .map(|(code, n)| format!("{code} {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        let stopped = match self.stopped_by {
            StoppedBy::Mutations => "all mutations sent",
            StoppedBy::Duration => "duration reached",
            StoppedBy::Interrupt => "interrupted",
            StoppedBy::Caller => "stopped by the caller",
        };
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "loadtest {} against {}",
            self.run,
            self.urls.join(", ")
        );
        let _ = writeln!(
            out,
            "sockets     {} over {} merchant(s), {} lost",
            self.sockets, self.merchants, self.sockets_lost
        );
        let _ = writeln!(
            out,
            "mutations   {} sent in {:.2} s ({:.1}/s, target {:.1}/s; {stopped})",
            self.mutations_sent, self.sending_seconds, self.achieved_rate, self.target_rate
        );
        let _ = writeln!(
            out,
            "outcome     {} committed, {} failed{}",
            self.committed,
            self.failures,
            if codes.is_empty() {
                String::new()
            } else {
                format!(" ({codes})")
            }
        );
        let _ = writeln!(out, "{}", self.round_trip_us.line("round trip"));
        let _ = writeln!(out, "{}", self.delta_us.line("delta"));
        let _ = writeln!(
            out,
            "deltas      {} received of {} expected, {} out of order",
            self.deltas_received, self.deltas_expected, self.deltas_out_of_order
        );
        if let Some(resilience) = &self.reconnect {
            resilience.lines(&mut out);
        }
        out
    }
}

impl Resilience {
    fn lines(&self, out: &mut String) {
        let codes = self
            .close_codes
            .iter()
            .map(|(code, n)| format!("{code} ×{n}"))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            out,
            "reconnects  {} (closed with {}), {} resync(s)",
            self.reconnects,
            if codes.is_empty() { "-" } else { &codes },
            self.resyncs
        );
        let _ = writeln!(
            out,
            "resumed     {} delta(s) missing, {} duplicated; {} command(s) resent, {} committed twice",
            self.deltas_missing,
            self.deltas_duplicated,
            self.commands_resent,
            self.commands_committed_twice
        );
        let _ = writeln!(out, "{}", self.resent_round_trip_us.line("resent"));
    }
}

/// A latency for people: microseconds below a millisecond, else milliseconds or seconds.
pub fn micros(value: u64) -> String {
    match value {
        0..=999 => format!("{value} µs"),
        1_000..=999_999 => format!("{:.2} ms", value as f64 / 1_000.0),
        _ => format!("{:.2} s", value as f64 / 1_000_000.0),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn latencies_read_well() {
        assert_eq!(micros(0), "0 µs");
        assert_eq!(micros(999), "999 µs");
        assert_eq!(micros(1_000), "1.00 ms");
        assert_eq!(micros(12_345), "12.35 ms");
        assert_eq!(micros(2_500_000), "2.50 s");
    }

    #[test]
    fn percentiles_come_from_the_histogram() {
        let mut histogram = Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 3).unwrap();
        for value in 1..=1_000 {
            histogram.record(value * 100).unwrap();
        }
        let summary = Summary::of(&histogram);
        assert_eq!(summary.count, 1_000);
        // Three significant digits: values land within 0.1 % of the truth.
        assert!((49_950..=50_050).contains(&summary.p50), "{}", summary.p50);
        assert!((89_900..=90_100).contains(&summary.p90), "{}", summary.p90);
        assert!((98_900..=99_100).contains(&summary.p99), "{}", summary.p99);
        assert!((99_900..=100_100).contains(&summary.max), "{}", summary.max);
        assert!(summary.line("delta").contains("p50  50.0"));
        assert_eq!(
            Summary::of(&Histogram::<u64>::new(3).unwrap()),
            Summary::default()
        );
        assert!(Summary::default().line("delta").contains("no samples"));
    }
}
