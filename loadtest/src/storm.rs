//! A join storm: every socket of the run opens at once (as when a node
//! restarts and every tab reconnects) and none is read until all are open.
//! Then each is read until it has been quiet for a while, counting what
//! the server sent besides `Welcome`: with no commands sent, that is all
//! presence, and it is what piled up unread meanwhile.
//!
//! With a hold, the sockets then stay open and idle for that long, still
//! read (so the server's pings are answered), while the server's memory and
//! CPU are read from outside (`loadtest/idle-sockets.sh`).

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use protocol::ServerFrame;
use serde::Serialize;
use tokio::sync::{oneshot, watch};
use tokio_tungstenite::tungstenite::Message;

use crate::error::Fallible;
use crate::run::{Plan, open_sockets, sign_up_all};
use crate::socket::Reader;
use crate::target::Target;

/// A socket that has sent nothing for this long is taken as settled.
const QUIET: Duration = Duration::from_secs(3);
/// However chatty, reading stops after this long.
const READ_LIMIT: Duration = Duration::from_secs(120);

#[derive(Debug, Serialize)]
pub struct StormReport {
    pub sockets: usize,
    pub merchants: usize,
    /// From the first upgrade to the last `Welcome`.
    pub open_seconds: f64,
    /// Frames other than `Welcome`, `Delta`, `Reply` and `Pong`, all sockets.
    pub presence_frames: u64,
    /// Their bytes on the wire (the frames' payloads), all sockets.
    pub presence_bytes: u64,
    /// Of those bytes, the most one socket received.
    pub max_socket_bytes: u64,
    /// Of those frames, the most one socket received.
    pub max_socket_frames: u64,
    /// From the last `Welcome` until the last of those frames arrived.
    pub settled_seconds: f64,
    /// How long the settled sockets were then held open and idle.
    pub held_seconds: u64,
    /// Sockets the server closed, or whose connection ended, before the
    /// hold was over (an idle socket must stay open).
    pub closed_while_held: u64,
}

impl StormReport {
    pub fn human(&self) -> String {
        format!(
            "join storm: {} sockets over {} merchant(s), opened in {:.1} s\n\
             presence: {} frames, {} bytes in all ({:.2} MB); at most {} frames / {} bytes on one socket\n\
             last presence frame {:.2} s after the last Welcome\n\
             held open idle for {} s; {} socket(s) closed meanwhile\n",
            self.sockets,
            self.merchants,
            self.open_seconds,
            self.presence_frames,
            self.presence_bytes,
            self.presence_bytes as f64 / 1_000_000.0,
            self.max_socket_frames,
            self.max_socket_bytes,
            self.settled_seconds,
            self.held_seconds,
            self.closed_while_held,
        )
    }
}

struct Counted {
    frames: u64,
    bytes: u64,
    last: Option<Instant>,
    /// The socket ended while it was being counted.
    closed: bool,
}

/// Whether a frame is something other than presence. Frames this build
/// cannot decode (an older server's presence) count as presence.
fn is_other(bytes: &[u8]) -> bool {
    matches!(
        protocol::decode::<ServerFrame>(bytes),
        Ok(ServerFrame::Welcome { .. }
            | ServerFrame::Delta { .. }
            | ServerFrame::Reply { .. }
            | ServerFrame::Pong {})
    )
}

async fn count(reader: &mut Reader) -> Counted {
    let mut counted = Counted {
        frames: 0,
        bytes: 0,
        last: None,
        closed: false,
    };
    let stop = Instant::now() + READ_LIMIT;
    while Instant::now() < stop {
        match tokio::time::timeout(QUIET, reader.next()).await {
            Ok(Some(Ok(Message::Binary(bytes)))) => {
                if !is_other(&bytes) {
                    counted.frames += 1;
                    counted.bytes += bytes.len() as u64;
                    counted.last = Some(Instant::now());
                }
            }
            Ok(Some(Ok(_))) => {}
            Ok(Some(Err(_)) | None) => {
                counted.closed = true;
                break;
            }
            Err(_) => break,
        }
    }
    counted
}

/// Counts a socket's presence, hands the count over, then goes on reading
/// (pings are answered while reading) until told the hold is over. Returns
/// whether the socket ended before that.
async fn count_then_hold(
    mut reader: Reader,
    counted_to: oneshot::Sender<Counted>,
    mut release: watch::Receiver<bool>,
) -> bool {
    let counted = count(&mut reader).await;
    let closed = counted.closed;
    let _ = counted_to.send(counted);
    if closed {
        return true;
    }
    loop {
        tokio::select! {
            _ = release.changed() => return false,
            frame = reader.next() => match frame {
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return true,
            },
        }
    }
}

/// Signs the merchants up and waits for `gate`; then opens every socket at
/// once, counts the presence each got until settled, and holds them all open
/// and idle for `hold` before closing them.
pub async fn storm(
    targets: &[Target],
    plan: &Plan,
    gate: impl Future<Output = ()>,
    hold: Duration,
) -> Fallible<StormReport> {
    let merchants = sign_up_all(targets, plan).await?;
    gate.await;
    let opening = Instant::now();
    let opened = open_sockets(targets, plan, &merchants).await?;
    let open_seconds = opening.elapsed().as_secs_f64();
    let all_open = Instant::now();
    let (release, released) = watch::channel(false);
    let mut writers = Vec::with_capacity(opened.len());
    let mut counts = Vec::with_capacity(opened.len());
    let mut holders = Vec::with_capacity(opened.len());
    for socket in opened {
        writers.push(socket.writer);
        let (counted_to, counted) = oneshot::channel();
        counts.push(counted);
        holders.push(tokio::spawn(count_then_hold(
            socket.reader,
            counted_to,
            released.clone(),
        )));
    }
    let mut report = StormReport {
        sockets: plan.sockets,
        merchants: plan.merchants,
        open_seconds,
        presence_frames: 0,
        presence_bytes: 0,
        max_socket_bytes: 0,
        max_socket_frames: 0,
        settled_seconds: 0.0,
        held_seconds: hold.as_secs(),
        closed_while_held: 0,
    };
    for counted in counts {
        let counted = counted.await?;
        report.presence_frames += counted.frames;
        report.presence_bytes += counted.bytes;
        report.max_socket_bytes = report.max_socket_bytes.max(counted.bytes);
        report.max_socket_frames = report.max_socket_frames.max(counted.frames);
        if let Some(last) = counted.last {
            let after = last.saturating_duration_since(all_open).as_secs_f64();
            report.settled_seconds = report.settled_seconds.max(after);
        }
    }
    if !hold.is_zero() {
        // The exact line loadtest/idle-sockets.sh waits for before it reads the server.
        eprintln!(
            "holding {} socket(s) open for {} s",
            holders.len(),
            hold.as_secs()
        );
        tokio::time::sleep(hold).await;
        eprintln!("hold over");
    }
    let _ = release.send(true);
    for holder in holders {
        if holder.await? {
            report.closed_while_held += 1;
        }
    }
    drop(writers);
    Ok(report)
}
