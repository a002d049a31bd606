//! What the run measures, joined as frames arrive: each command's round trip
//! (matched by command id) and each delta's latency on the merchant's other
//! sockets (matched by the `seq` the reply names). No I/O here.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

use hdrhistogram::Histogram;

/// Latencies are recorded in microseconds, from 1 µs to an hour, 3 significant digits.
const HIGHEST_MICROS: u64 = 3_600_000_000;

/// One command on its way: when it left and from which socket.
#[derive(Debug, Clone, Copy)]
pub struct Sent {
    pub at: Instant,
    pub socket: usize,
    pub merchant: usize,
}

/// How the server answered a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Committed { seq: u64 },
    Failed { code: String },
}

pub struct Recorder {
    /// Sockets each merchant has open; a commit is expected on all but the sender.
    sockets_per_merchant: Vec<usize>,
    pending: HashMap<String, Sent>,
    committed: HashMap<(usize, u64), Sent>,
    /// Deltas that overtook their reply (the server broadcasts before it answers).
    early: HashMap<(usize, u64), Vec<(usize, Instant)>>,
    pub round_trip: Histogram<u64>,
    pub delta: Histogram<u64>,
    pub sent: u64,
    pub commits: u64,
    pub failures: u64,
    pub failure_codes: BTreeMap<String, u64>,
    pub deltas_expected: u64,
    pub deltas_received: u64,
    /// Deltas whose seq was not the socket's previous seq + 1.
    pub deltas_out_of_order: u64,
    pub sockets_lost: u64,
    /// What only a run with reconnects counts (`--reconnect`).
    pub resumed: Resumed,
}

/// Figures of a run whose sockets reconnect and resume (`--reconnect`).
pub struct Resumed {
    /// Sockets opened again (and welcomed) after the server closed them.
    pub reconnects: u64,
    /// Close codes of the sockets the server closed (`none` when it was cut).
    pub close_codes: BTreeMap<String, u64>,
    /// `Resync` frames: the server could not replay what a socket missed.
    pub resyncs: u64,
    /// Deltas whose seq a socket had already seen.
    pub deltas_duplicated: u64,
    /// Commands sent again under their id after a reconnect.
    pub commands_resent: u64,
    resent: HashSet<String>,
    /// Round trips of the resent commands, from their first send.
    pub resent_round_trip: Histogram<u64>,
    /// Each created customer's (merchant, e-mail) and the seq that created it.
    created: HashMap<(usize, String), u64>,
    /// Customers created under a second seq: a command that ran twice.
    committed_twice: HashSet<(usize, String)>,
}

impl Resumed {
    pub fn commands_committed_twice(&self) -> u64 {
        self.committed_twice.len() as u64
    }
}

fn micros_between(from: Instant, to: Instant) -> u64 {
    u64::try_from(to.saturating_duration_since(from).as_micros()).unwrap_or(u64::MAX)
}

impl Recorder {
    pub fn new(sockets_per_merchant: Vec<usize>) -> Result<Recorder, String> {
        let histogram = || {
            Histogram::new_with_bounds(1, HIGHEST_MICROS, 3)
                .map_err(|err| format!("cannot create a histogram: {err}"))
        };
        Ok(Recorder {
            sockets_per_merchant,
            pending: HashMap::new(),
            committed: HashMap::new(),
            early: HashMap::new(),
            round_trip: histogram()?,
            delta: histogram()?,
            sent: 0,
            commits: 0,
            failures: 0,
            failure_codes: BTreeMap::new(),
            deltas_expected: 0,
            deltas_received: 0,
            deltas_out_of_order: 0,
            sockets_lost: 0,
            resumed: Resumed {
                reconnects: 0,
                close_codes: BTreeMap::new(),
                resyncs: 0,
                deltas_duplicated: 0,
                commands_resent: 0,
                resent: HashSet::new(),
                resent_round_trip: histogram()?,
                created: HashMap::new(),
                committed_twice: HashSet::new(),
            },
        })
    }

    /// Called just before the frame is written, so a fast reply always finds it.
    pub fn sending(&mut self, id: String, sent: Sent) {
        self.sent += 1;
        self.pending.insert(id, sent);
    }

    pub fn send_failed(&mut self, id: &str, why: &str) {
        if self.pending.remove(id).is_some() {
            self.fail(why);
        }
    }

    fn fail(&mut self, code: &str) {
        self.failures += 1;
        *self.failure_codes.entry(code.to_string()).or_default() += 1;
    }

    pub fn reply(&mut self, id: &str, outcome: Outcome, at: Instant) {
        let Some(sent) = self.pending.remove(id) else {
            return;
        };
        self.round_trip
            .saturating_record(micros_between(sent.at, at));
        if self.resumed.resent.remove(id) {
            self.resumed
                .resent_round_trip
                .saturating_record(micros_between(sent.at, at));
        }
        let seq = match outcome {
            Outcome::Committed { seq } => seq,
            Outcome::Failed { code } => return self.fail(&code),
        };
        self.commits += 1;
        let others = self
            .sockets_per_merchant
            .get(sent.merchant)
            .map_or(0, |n| n.saturating_sub(1));
        self.deltas_expected += others as u64;
        let key = (sent.merchant, seq);
        for (socket, arrived) in self.early.remove(&key).unwrap_or_default() {
            self.record_delta(sent, socket, arrived);
        }
        self.committed.insert(key, sent);
    }

    pub fn delta(&mut self, merchant: usize, socket: usize, seq: u64, at: Instant) {
        match self.committed.get(&(merchant, seq)).copied() {
            Some(sent) => self.record_delta(sent, socket, at),
            None => self
                .early
                .entry((merchant, seq))
                .or_default()
                .push((socket, at)),
        }
    }

    fn record_delta(&mut self, sent: Sent, socket: usize, at: Instant) {
        // The sender learns its outcome from the reply; only the others count.
        if socket != sent.socket {
            self.deltas_received += 1;
            self.delta.saturating_record(micros_between(sent.at, at));
        }
    }

    pub fn out_of_order(&mut self) {
        self.deltas_out_of_order += 1;
    }

    pub fn socket_lost(&mut self) {
        self.sockets_lost += 1;
    }

    /// The server closed a socket with `code` (`None`: no close frame).
    pub fn closed(&mut self, code: Option<u16>) {
        let code = code.map_or_else(|| "none".to_string(), |c| c.to_string());
        *self.resumed.close_codes.entry(code).or_default() += 1;
    }

    pub fn reconnected(&mut self) {
        self.resumed.reconnects += 1;
    }

    pub fn resync(&mut self) {
        self.resumed.resyncs += 1;
    }

    pub fn duplicated(&mut self) {
        self.resumed.deltas_duplicated += 1;
    }

    /// Commands sent again, under their ids, on a new connection. Only
    /// those still unanswered count: a reply may have arrived meanwhile.
    pub fn resending<'a>(&mut self, ids: impl IntoIterator<Item = &'a str>) {
        for id in ids {
            if self.pending.contains_key(id) && self.resumed.resent.insert(id.to_string()) {
                self.resumed.commands_resent += 1;
            }
        }
    }

    /// A delta at `seq` created the merchant's customer `email`. Every
    /// socket of the merchant reports it; a second seq for the same
    /// customer means its command was committed twice.
    pub fn created(&mut self, merchant: usize, email: &str, seq: u64) {
        let key = (merchant, email.to_string());
        match self.resumed.created.get(&key) {
            Some(&first) if first != seq => {
                self.resumed.committed_twice.insert(key);
            }
            Some(_) => {}
            None => {
                self.resumed.created.insert(key, seq);
            }
        }
    }

    /// Every command answered and every expected delta seen.
    pub fn settled(&self) -> bool {
        self.pending.is_empty() && self.deltas_received >= self.deltas_expected
    }

    /// Counts commands still unanswered at the end as failures.
    pub fn close(&mut self) {
        let unanswered = self.pending.len();
        self.pending.clear();
        for _ in 0..unanswered {
            self.fail("no_reply");
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn sent(at: Instant, socket: usize) -> Sent {
        Sent {
            at,
            socket,
            merchant: 0,
        }
    }

    #[test]
    fn deltas_before_and_after_the_reply_both_count() {
        let t0 = Instant::now();
        let ms = |n| t0 + Duration::from_millis(n);
        let mut recorder = Recorder::new(vec![3]).unwrap();
        recorder.sending("a".into(), sent(t0, 0));
        // The sender's own delta and one other socket's delta overtake the reply.
        recorder.delta(0, 0, 7, ms(1));
        recorder.delta(0, 1, 7, ms(2));
        recorder.reply("a", Outcome::Committed { seq: 7 }, ms(3));
        assert!(!recorder.settled());
        recorder.delta(0, 2, 7, ms(4));
        assert!(recorder.settled());
        assert_eq!(recorder.deltas_expected, 2);
        assert_eq!(recorder.deltas_received, 2);
        assert_eq!(recorder.delta.len(), 2);
        assert!(recorder.delta.max() >= 3_990);
        assert_eq!(recorder.round_trip.len(), 1);
    }

    #[test]
    fn a_resent_command_is_timed_from_its_first_send_and_a_second_seq_is_a_double_commit() {
        let t0 = Instant::now();
        let mut recorder = Recorder::new(vec![2]).unwrap();
        recorder.sending("a".into(), sent(t0, 0));
        recorder.resending(["a", "answered-before"]);
        recorder.resending(["a"]);
        assert_eq!(recorder.resumed.commands_resent, 1);
        recorder.reply(
            "a",
            Outcome::Committed { seq: 4 },
            t0 + Duration::from_millis(700),
        );
        assert!(recorder.resumed.resent_round_trip.max() >= 699_000);
        recorder.created(0, "c1@example.co.za", 4);
        recorder.created(0, "c1@example.co.za", 4);
        assert_eq!(recorder.resumed.commands_committed_twice(), 0);
        recorder.created(0, "c1@example.co.za", 5);
        recorder.created(1, "c1@example.co.za", 9);
        assert_eq!(recorder.resumed.commands_committed_twice(), 1);
    }

    #[test]
    fn errors_and_silence_are_failures() {
        let t0 = Instant::now();
        let mut recorder = Recorder::new(vec![2]).unwrap();
        recorder.sending("a".into(), sent(t0, 0));
        recorder.sending("b".into(), sent(t0, 1));
        recorder.reply(
            "a",
            Outcome::Failed {
                code: "invalid_input".into(),
            },
            t0,
        );
        recorder.close();
        assert_eq!(recorder.failures, 2);
        assert_eq!(recorder.failure_codes.get("invalid_input"), Some(&1));
        assert_eq!(recorder.failure_codes.get("no_reply"), Some(&1));
        assert_eq!(recorder.deltas_expected, 0);
    }
}
