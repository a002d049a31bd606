//! One socket of the run for its whole life: a task reads every reply and
//! delta into the recorder, and with `--reconnect` it outlives the
//! connection. When the server closes it (1001 in a rolling restart) or the
//! connection drops, the task opens it again on the next node, round robin,
//! after a jittered backoff as the web app does, resumes from the last `seq`
//! it saw, and sends every unanswered command again under its id (the
//! server answers a retry of a committed command with its stored reply).

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use protocol::{Change, Resume, ServerFrame};
use tokio_tungstenite::tungstenite::Message;

use crate::error::describe;
use crate::recorder::{Outcome, Recorder};
use crate::socket::{self, Reader, Writer, code_name};
use crate::target::Target;

/// The web app's backoff (web/src/live/position.ts): 500 ms, doubling, at most 10 s.
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
const MAX_BACKOFF: Duration = Duration::from_secs(10);

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// How long to wait before reconnect attempt `attempt` (0 first): the web
/// app's backoff, spread over its upper half so that the sockets of a
/// stopped node do not all arrive at the other node in the same instant.
pub fn backoff(attempt: u32, spread: f64) -> Duration {
    let full = FIRST_BACKOFF
        .saturating_mul(2u32.saturating_pow(attempt.min(16)))
        .min(MAX_BACKOFF);
    full.mul_f64(0.5 + 0.5 * spread.clamp(0.0, 1.0))
}

/// A number in [0, 1): std's randomly keyed hasher is random enough for jitter.
fn spread() -> f64 {
    let bits = RandomState::new().hash_one(Instant::now()) >> 11;
    bits as f64 / (1u64 << 53) as f64
}

/// The writing half, shared by the sender and the socket's own task.
pub struct Link {
    /// `None` while the socket is away (reconnecting) or after it was lost.
    writer: tokio::sync::Mutex<Option<Writer>>,
    /// With `keep`: commands sent and not yet answered, in the order sent.
    unanswered: Mutex<Vec<(String, Message)>>,
    keep: bool,
}

impl Link {
    /// `keep`: hold unanswered commands to send them again after a reconnect.
    pub fn new(writer: Writer, keep: bool) -> Link {
        Link {
            writer: tokio::sync::Mutex::new(Some(writer)),
            unanswered: Mutex::new(Vec::new()),
            keep,
        }
    }

    /// Sends command `id`. While the socket is away, or when the write fails
    /// because it just went, a kept command waits for the reconnect instead.
    pub async fn send(&self, id: &str, message: Message) -> Result<(), String> {
        let mut writer = self.writer.lock().await;
        if self.keep {
            lock(&self.unanswered).push((id.to_string(), message.clone()));
        }
        match writer.as_mut() {
            Some(writer) => match writer.send(message).await {
                Ok(()) => Ok(()),
                Err(_) if self.keep => Ok(()),
                Err(err) => Err(describe(&err)),
            },
            None if self.keep => Ok(()),
            None => Err("the socket is closed".into()),
        }
    }

    fn answered(&self, id: &str) {
        if self.keep {
            lock(&self.unanswered).retain(|(sent, _)| sent != id);
        }
    }

    async fn detach(&self) {
        self.writer.lock().await.take();
    }

    /// Puts a new connection in place and sends it every unanswered command
    /// first, under the same ids, in the order they were first sent. Under
    /// the writer's lock, so a new command cannot overtake them.
    async fn attach(&self, mut writer: Writer, recorder: &Mutex<Recorder>) {
        let mut slot = self.writer.lock().await;
        let again: Vec<(String, Message)> = lock(&self.unanswered).clone();
        lock(recorder).resending(again.iter().map(|(id, _)| id.as_str()));
        for (_, message) in again {
            // A failed write means this connection went too: the reader
            // sees it end and the next reconnect sends these again.
            if writer.feed(message).await.is_err() {
                break;
            }
        }
        let _ = writer.flush().await;
        *slot = Some(writer);
    }

    pub async fn connected(&self) -> bool {
        self.writer.lock().await.is_some()
    }

    pub async fn close(&self) {
        if let Some(writer) = self.writer.lock().await.as_mut() {
            let _ = writer.close().await;
        }
    }
}

/// Where a socket sits in the run, and where its stream stood.
#[derive(Debug, Clone)]
pub struct Seat {
    pub socket: usize,
    pub merchant: usize,
    /// The node (index into the targets) it is connected to.
    pub node: usize,
    pub cookie: String,
    pub epoch: String,
    /// The last `seq` it saw: the next delta must carry `last + 1`.
    pub last: u64,
}

/// What every socket's task shares.
#[derive(Clone)]
pub struct Shared {
    pub targets: Arc<[Target]>,
    pub recorder: Arc<Mutex<Recorder>>,
    /// Set when the run closes its sockets: an end after that is expected.
    pub closing: Arc<AtomicBool>,
    pub reconnect: bool,
}

/// How a delta's `seq` stands to the socket's last one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Next,
    /// One or more seqs were skipped.
    Gap,
    /// Already seen (a replay beyond the resume position would be one).
    Repeat,
}

pub fn judge(last: u64, seq: u64) -> Verdict {
    if seq <= last {
        Verdict::Repeat
    } else if seq == last + 1 {
        Verdict::Next
    } else {
        Verdict::Gap
    }
}

/// Reads the socket until the run closes it. Without reconnect, an end
/// before that counts as a lost socket; with it, the socket is opened again.
pub async fn keep(link: Arc<Link>, mut reader: Reader, mut seat: Seat, shared: Shared) {
    loop {
        let code = read(&mut reader, &link, &mut seat, &shared).await;
        if shared.closing.load(Ordering::SeqCst) {
            return;
        }
        if !shared.reconnect {
            lock(&shared.recorder).socket_lost();
            return;
        }
        link.detach().await;
        lock(&shared.recorder).closed(code);
        match reopen(&link, &mut seat, &shared).await {
            Some(next) => reader = next,
            None => return,
        }
    }
}

/// Opens the socket again on the next node, resuming, until one welcomes it
/// or the run closes.
async fn reopen(link: &Link, seat: &mut Seat, shared: &Shared) -> Option<Reader> {
    let nodes = shared.targets.len().max(1);
    for attempt in 0u32.. {
        tokio::time::sleep(backoff(attempt, spread())).await;
        if shared.closing.load(Ordering::SeqCst) {
            return None;
        }
        seat.node = (seat.node + 1) % nodes;
        let target = shared.targets.get(seat.node)?;
        let resume = Resume {
            epoch: seat.epoch.clone(),
            seq: seat.last,
        };
        match socket::open(target, &seat.cookie, Some(resume)).await {
            Ok(opened) => {
                link.attach(opened.writer, &shared.recorder).await;
                lock(&shared.recorder).reconnected();
                return Some(opened.reader);
            }
            // A stopped node refuses; the next attempt goes to the next one.
            Err(err) if attempt >= 3 => eprintln!(
                "socket {}: reconnect attempt {} to {}: {err}",
                seat.socket,
                attempt + 1,
                target.origin
            ),
            Err(_) => {}
        }
    }
    None
}

/// A frame's tag and `seq`, read without the rest. The server's frames are
/// tagged maps (`{"t": "Delta", "seq": …, "changes": […]}`), which a whole
/// `ServerFrame` decode first copies into a tree of its own to find the tag:
/// for a product's delta (each change with its history entry) that took the
/// load generator more CPU than the fan-out it measures, and more than a
/// bare server's smaller deltas, on the same two cores.
#[derive(serde::Deserialize)]
struct Head<'a> {
    #[serde(borrow)]
    t: &'a str,
    #[serde(default)]
    seq: Option<u64>,
}

/// Reads one connection until it ends; returns the close code the server sent.
async fn read(reader: &mut Reader, link: &Link, seat: &mut Seat, shared: &Shared) -> Option<u16> {
    let recorder = || lock(&shared.recorder);
    while let Some(Ok(message)) = reader.next().await {
        // Stamp first, so decoding and the lock do not count as latency.
        let at = Instant::now();
        let bytes = match message {
            Message::Binary(bytes) => bytes,
            // The server is going away: reconnect now rather than when it
            // finally drops the connection (as it exits, up to a second later).
            Message::Close(frame) => return frame.map(|f| u16::from(f.code)),
            _ => continue,
        };
        // Most frames are deltas, whose changes only `--reconnect` reads:
        // the rest of the run takes their `seq` alone.
        if !shared.reconnect
            && let Ok(Head {
                t: "Delta",
                seq: Some(seq),
            }) = protocol::decode::<Head>(&bytes)
        {
            let verdict = judge(seat.last, seq);
            seat.last = seat.last.max(seq);
            let mut recorder = recorder();
            if verdict != Verdict::Next {
                recorder.out_of_order();
            }
            recorder.delta(seat.merchant, seat.socket, seq, at);
            continue;
        }
        match protocol::decode::<ServerFrame>(&bytes) {
            Ok(ServerFrame::Delta { seq, changes }) => {
                // The protocol promises seq + 1 every time; anything else is a gap
                // (or a repeat) that a browser would have to resume from.
                let verdict = judge(seat.last, seq);
                seat.last = seat.last.max(seq);
                let mut recorder = recorder();
                if verdict != Verdict::Next {
                    recorder.out_of_order();
                }
                if shared.reconnect {
                    // Across reconnects a repeat is counted apart, never as
                    // the delta arriving.
                    if verdict == Verdict::Repeat {
                        recorder.duplicated();
                        continue;
                    }
                    for change in &changes {
                        if let Change::CustomerUpserted { customer } = change {
                            recorder.created(seat.merchant, &customer.email, seq);
                        }
                    }
                }
                recorder.delta(seat.merchant, seat.socket, seq, at);
            }
            Ok(ServerFrame::Reply { id, ok, error }) => {
                let outcome = match (ok, error) {
                    (Some(protocol::ReplyBody::Committed { seq, .. }), _) => {
                        Outcome::Committed { seq }
                    }
                    (_, Some(error)) => Outcome::Failed {
                        code: code_name(error.code),
                    },
                    _ => Outcome::Failed {
                        code: "unexpected_reply".into(),
                    },
                };
                link.answered(&id);
                recorder().reply(&id, outcome, at);
            }
            Ok(ServerFrame::Resync { epoch, seq }) => {
                // A browser would refetch and carry on from here.
                recorder().resync();
                seat.epoch = epoch;
                seat.last = seq;
            }
            Ok(_) => {}
            Err(err) => eprintln!("socket {}: undecodable frame: {err}", seat.socket),
        }
    }
    None
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_frames_head_is_its_tag_and_seq() {
        let delta = protocol::encode(&ServerFrame::Delta {
            seq: 41,
            changes: vec![Change::Invalidate {
                kind: protocol::EntityKind::Customer,
            }],
        })
        .unwrap();
        let head = protocol::decode::<Head>(&delta).unwrap();
        assert_eq!((head.t, head.seq), ("Delta", Some(41)));
        let reply = protocol::encode(&ServerFrame::Reply {
            id: "c1".into(),
            ok: None,
            error: None,
        })
        .unwrap();
        let head = protocol::decode::<Head>(&reply).unwrap();
        assert_eq!((head.t, head.seq), ("Reply", None));
    }

    #[test]
    fn backoff_doubles_from_half_a_second_to_ten_within_its_upper_half() {
        let full = |attempt| backoff(attempt, 1.0);
        assert_eq!(full(0), Duration::from_millis(500));
        assert_eq!(full(1), Duration::from_secs(1));
        assert_eq!(full(4), Duration::from_secs(8));
        assert_eq!(full(5), Duration::from_secs(10));
        assert_eq!(full(40), Duration::from_secs(10));
        assert_eq!(backoff(0, 0.0), Duration::from_millis(250));
        let jittered = backoff(2, spread());
        assert!(jittered >= Duration::from_secs(1) && jittered <= Duration::from_secs(2));
    }

    #[test]
    fn a_delta_is_next_a_gap_or_a_repeat() {
        assert_eq!(judge(4, 5), Verdict::Next);
        assert_eq!(judge(4, 7), Verdict::Gap);
        assert_eq!(judge(4, 4), Verdict::Repeat);
        assert_eq!(judge(4, 2), Verdict::Repeat);
    }
}
