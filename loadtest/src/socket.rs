//! One signed-in socket: the upgrade with the owner's cookies, `Hello` until
//! `Welcome`, then a reader that feeds every reply and delta to the recorder.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use protocol::{ClientFrame, ServerFrame};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::error::{Fallible, describe};
use crate::recorder::{Outcome, Recorder};
use crate::target::Target;

type Stream = WebSocketStream<MaybeTlsStream<TcpStream>>;
pub type Writer = SplitSink<Stream, Message>;
pub type Reader = SplitStream<Stream>;

/// Why opening may take this long: the upgrade checks the session in the database.
const OPEN_TIMEOUT: Duration = Duration::from_secs(20);

pub fn binary(frame: &ClientFrame) -> Fallible<Message> {
    Ok(Message::Binary(protocol::encode(frame)?.into()))
}

/// An open, welcomed socket.
pub struct Opened {
    pub writer: Writer,
    pub reader: Reader,
    /// The stream position from `Welcome`: the first delta must carry `seq + 1`.
    pub seq: u64,
}

/// Opens `/ws` as the merchant owner whose cookies are given and waits for `Welcome`.
pub async fn open(target: &Target, cookie: &str) -> Fallible<Opened> {
    tokio::time::timeout(OPEN_TIMEOUT, open_inner(target, cookie))
        .await
        .map_err(|_| format!("no Welcome within {} s", OPEN_TIMEOUT.as_secs()))?
}

async fn open_inner(target: &Target, cookie: &str) -> Fallible<Opened> {
    let mut request = target.socket_url.as_str().into_client_request()?;
    let headers = request.headers_mut();
    headers.insert("origin", HeaderValue::from_str(&target.origin)?);
    headers.insert("cookie", HeaderValue::from_str(cookie)?);
    // No Nagle delay, as browsers do: a command must leave when it is sent.
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(request, None, true)
        .await
        .map_err(|err| format!("socket upgrade: {}", describe(&err)))?;
    let hello = ClientFrame::Hello {
        resume: None,
        build: "loadtest".into(),
        merchant_id: None,
        mode: None,
    };
    socket.send(binary(&hello)?).await?;
    while let Some(message) = socket.next().await {
        match message? {
            Message::Binary(bytes) => {
                if let ServerFrame::Welcome { seq, .. } = protocol::decode::<ServerFrame>(&bytes)? {
                    let (writer, reader) = socket.split();
                    return Ok(Opened {
                        writer,
                        reader,
                        seq,
                    });
                }
            }
            Message::Close(reason) => {
                return Err(format!("closed before Welcome: {reason:?}").into());
            }
            _ => {}
        }
    }
    Err("closed before Welcome".into())
}

/// Where a reader's socket sits in the run, and where its stream stood at `Welcome`.
#[derive(Debug, Clone, Copy)]
pub struct Seat {
    pub socket: usize,
    pub merchant: usize,
    pub welcome_seq: u64,
}

/// Reads until the socket ends. A socket that ends before `closing` is set counts as lost.
pub async fn read_frames(
    mut reader: Reader,
    seat: Seat,
    recorder: Arc<Mutex<Recorder>>,
    closing: Arc<AtomicBool>,
) {
    let lock = || recorder.lock().unwrap_or_else(|p| p.into_inner());
    let mut last_seq = seat.welcome_seq;
    while let Some(Ok(message)) = reader.next().await {
        // Stamp first, so decoding and the lock do not count as latency.
        let at = Instant::now();
        let Message::Binary(bytes) = message else {
            continue;
        };
        match protocol::decode::<ServerFrame>(&bytes) {
            Ok(ServerFrame::Delta { seq, .. }) => {
                // The protocol promises seq + 1 every time; anything else is a gap
                // (or a repeat) that a browser would have to resume from.
                let in_order = seq == last_seq + 1;
                last_seq = last_seq.max(seq);
                let mut recorder = lock();
                if !in_order {
                    recorder.out_of_order();
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
                lock().reply(&id, outcome, at);
            }
            Ok(_) => {}
            Err(err) => eprintln!("socket {}: undecodable frame: {err}", seat.socket),
        }
    }
    if !closing.load(Ordering::SeqCst) {
        lock().socket_lost();
    }
}

/// The wire name of an error code (`invalid_input`, ...).
fn code_name(code: protocol::ErrorCode) -> String {
    serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{code:?}"))
}
