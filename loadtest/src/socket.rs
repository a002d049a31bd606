//! One signed-in socket: the upgrade with the owner's cookies, `Hello` (with
//! a resume when reopening) until `Welcome`. `link` reads it.

use std::time::Duration;

use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use protocol::{ClientFrame, Resume, ServerFrame};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::error::{Fallible, describe};
use crate::target::Target;

type Stream = WebSocketStream<MaybeTlsStream<TcpStream>>;
pub type Writer = SplitSink<Stream, Message>;
pub type Reader = SplitStream<Stream>;

/// Why opening may take this long: the upgrade checks the session in the database.
const OPEN_TIMEOUT: Duration = Duration::from_secs(20);

/// The socket's read buffer. The library's default (128 KiB) suits a few
/// connections carrying large messages; a run holds thousands carrying
/// frames of a few hundred bytes, and the library zero-fills the whole
/// buffer before every read: at 25,000 deltas/s that memset was a quarter
/// of the load generator's CPU, and the generator fell behind its sockets
/// (megabytes unread in their receive queues) and measured its own lag.
const READ_BUFFER: usize = 4 * 1024;

/// How every socket of a run is configured.
fn config() -> WebSocketConfig {
    WebSocketConfig::default().read_buffer_size(READ_BUFFER)
}

pub fn binary(frame: &ClientFrame) -> Fallible<Message> {
    Ok(Message::Binary(protocol::encode(frame)?.into()))
}

/// An open, welcomed socket.
pub struct Opened {
    pub writer: Writer,
    pub reader: Reader,
    /// The stream position from `Welcome`: the first delta must carry `seq + 1`
    /// (after a resume, the replayed ones come first, from the resume's `seq + 1`).
    pub seq: u64,
    /// The stream's epoch from `Welcome`, for a later resume.
    pub epoch: String,
    /// The `Cookie` header it was opened with, to open it again.
    pub cookie: String,
}

/// Opens `/ws` as the merchant owner whose cookies are given and waits for
/// `Welcome`; with `resume`, the server replays what followed that position.
pub async fn open(target: &Target, cookie: &str, resume: Option<Resume>) -> Fallible<Opened> {
    tokio::time::timeout(OPEN_TIMEOUT, open_inner(target, cookie, resume))
        .await
        .map_err(|_| format!("no Welcome within {} s", OPEN_TIMEOUT.as_secs()))?
}

async fn open_inner(target: &Target, cookie: &str, resume: Option<Resume>) -> Fallible<Opened> {
    let mut request = target.socket_url.as_str().into_client_request()?;
    let headers = request.headers_mut();
    headers.insert("origin", HeaderValue::from_str(&target.origin)?);
    headers.insert("cookie", HeaderValue::from_str(cookie)?);
    // No Nagle delay, as browsers do: a command must leave when it is sent.
    let (mut socket, _) =
        tokio_tungstenite::connect_async_with_config(request, Some(config()), true)
            .await
            .map_err(|err| format!("socket upgrade: {}", describe(&err)))?;
    let hello = ClientFrame::Hello {
        resume,
        build: "loadtest".into(),
        merchant_id: None,
        mode: None,
    };
    socket.send(binary(&hello)?).await?;
    while let Some(message) = socket.next().await {
        match message? {
            Message::Binary(bytes) => {
                if let ServerFrame::Welcome { seq, epoch, .. } =
                    protocol::decode::<ServerFrame>(&bytes)?
                {
                    let (writer, reader) = socket.split();
                    return Ok(Opened {
                        writer,
                        reader,
                        seq,
                        epoch,
                        cookie: cookie.to_string(),
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

/// The wire name of an error code (`invalid_input`, ...).
pub fn code_name(code: protocol::ErrorCode) -> String {
    serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{code:?}"))
}
