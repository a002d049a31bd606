//! A join storm: every socket of the run opens at once (as when a node
//! restarts and every tab reconnects) and none is read until all are open.
//! Then each is read until it has been quiet for a while, counting what
//! the server sent besides `Welcome`: with no commands sent, that is all
//! presence, and it is what piled up unread meanwhile.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use protocol::ServerFrame;
use serde::Serialize;
use tokio_tungstenite::tungstenite::Message;

use crate::error::Fallible;
use crate::run::{Plan, open_all};
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
}

impl StormReport {
    pub fn human(&self) -> String {
        format!(
            "join storm: {} sockets over {} merchant(s), opened in {:.1} s\n\
             presence: {} frames, {} bytes in all ({:.2} MB); at most {} frames / {} bytes on one socket\n\
             last presence frame {:.2} s after the last Welcome\n",
            self.sockets,
            self.merchants,
            self.open_seconds,
            self.presence_frames,
            self.presence_bytes,
            self.presence_bytes as f64 / 1_000_000.0,
            self.max_socket_frames,
            self.max_socket_bytes,
            self.settled_seconds,
        )
    }
}

struct Counted {
    frames: u64,
    bytes: u64,
    last: Option<Instant>,
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

async fn count(mut reader: Reader) -> Counted {
    let mut counted = Counted {
        frames: 0,
        bytes: 0,
        last: None,
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
            Ok(Some(Err(_)) | None) | Err(_) => break,
        }
    }
    counted
}

pub async fn storm(targets: &[Target], plan: &Plan) -> Fallible<StormReport> {
    let opening = Instant::now();
    let opened = open_all(targets, plan).await?;
    let open_seconds = opening.elapsed().as_secs_f64();
    let all_open = Instant::now();
    let mut writers = Vec::with_capacity(opened.len());
    let mut readers = Vec::with_capacity(opened.len());
    for socket in opened {
        writers.push(socket.writer);
        readers.push(tokio::spawn(count(socket.reader)));
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
    };
    for reader in readers {
        let counted = reader.await?;
        report.presence_frames += counted.frames;
        report.presence_bytes += counted.bytes;
        report.max_socket_bytes = report.max_socket_bytes.max(counted.bytes);
        report.max_socket_frames = report.max_socket_frames.max(counted.frames);
        if let Some(last) = counted.last {
            let after = last.saturating_duration_since(all_open).as_secs_f64();
            report.settled_seconds = report.settled_seconds.max(after);
        }
    }
    drop(writers);
    Ok(report)
}
