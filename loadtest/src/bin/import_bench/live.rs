//! Other merchants stay prompt during a big import: against a running
//! server, merchant A uploads, checks and confirms the file over the socket
//! as the web app does, while merchant B creates a customer every few
//! milliseconds and times each reply. B's round trips are split into before
//! the upload, while A's file is uploaded and checked, while it commits, and
//! after.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use protocol::{Change, ClientFrame, Command, CustomerInput, ImportStatus, ReplyBody, ServerFrame};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::error::Fallible;
use crate::signup::sign_up;
use crate::target::Target;
use crate::{KIND, TEMPLATE};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Why a reply may take this long: a command queued behind a long write must still count.
const REPLY_TIMEOUT: Duration = Duration::from_secs(60);
/// Quiet time measured before the upload and after the commit.
const SETTLE: Duration = Duration::from_secs(3);

async fn open(target: &Target, cookie: &str) -> Fallible<Socket> {
    let mut request = target.socket_url.as_str().into_client_request()?;
    request
        .headers_mut()
        .insert("origin", HeaderValue::from_str(&target.origin)?);
    request
        .headers_mut()
        .insert("cookie", HeaderValue::from_str(cookie)?);
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(request, None, true).await?;
    let hello = ClientFrame::Hello {
        resume: None,
        build: "import-bench".into(),
        merchant_id: None,
        mode: None,
    };
    socket
        .send(Message::Binary(protocol::encode(&hello)?.into()))
        .await?;
    while let Some(message) = socket.next().await {
        if let Message::Binary(bytes) = message?
            && let ServerFrame::Welcome { .. } = protocol::decode::<ServerFrame>(&bytes)?
        {
            return Ok(socket);
        }
    }
    Err("closed before Welcome".into())
}

/// A's socket: commands answered in turn, and whether the import finished.
struct Importer {
    socket: Socket,
    next_id: u64,
    import_id: Option<String>,
    completed_at: Option<Instant>,
}

impl Importer {
    fn note(&mut self, frame: ServerFrame) -> Option<ServerFrame> {
        if let ServerFrame::Delta { changes, .. } = &frame {
            for change in changes {
                if let Change::ImportUpserted { import } = change
                    && Some(&import.id) == self.import_id.as_ref()
                    && import.status == ImportStatus::Completed
                    && self.completed_at.is_none()
                {
                    self.completed_at = Some(Instant::now());
                }
            }
            return None;
        }
        Some(frame)
    }

    async fn next_frame(&mut self) -> Fallible<ServerFrame> {
        loop {
            let message = tokio::time::timeout(REPLY_TIMEOUT, self.socket.next())
                .await
                .map_err(|_| "the importing socket heard nothing for a minute")?
                .ok_or("the importing socket closed")??;
            if let Message::Binary(bytes) = message {
                return Ok(protocol::decode::<ServerFrame>(&bytes)?);
            }
        }
    }

    async fn ask(&mut self, command: Command) -> Fallible<ReplyBody> {
        self.next_id += 1;
        let id = format!("imp-bench-{}", self.next_id);
        let frame = ClientFrame::Command {
            id: id.clone(),
            command,
        };
        self.socket
            .send(Message::Binary(protocol::encode(&frame)?.into()))
            .await?;
        loop {
            let frame = self.next_frame().await?;
            if let Some(ServerFrame::Reply { id: got, ok, error }) = self.note(frame)
                && got == id
            {
                return match (ok, error) {
                    (Some(body), _) => Ok(body),
                    (_, error) => Err(format!("command refused: {error:?}").into()),
                };
            }
        }
    }

    async fn wait_completed(&mut self) -> Fallible<Instant> {
        loop {
            if let Some(at) = self.completed_at {
                return Ok(at);
            }
            let frame = self.next_frame().await?;
            self.note(frame);
        }
    }
}

/// One of B's commands: when it was sent, and its round trip (None: no reply).
type Sample = (Instant, Option<Duration>);

async fn keep_asking(
    mut socket: Socket,
    every: Duration,
    stop: Arc<AtomicBool>,
) -> Fallible<Vec<Sample>> {
    let mut samples = Vec::new();
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut n = 0_u64;
    while !stop.load(Ordering::SeqCst) {
        tick.tick().await;
        n += 1;
        let id = format!("bench-b-{n}");
        let frame = ClientFrame::Command {
            id: id.clone(),
            command: Command::CreateCustomer {
                input: CustomerInput {
                    name: format!("Prompt Customer {n}"),
                    email: format!("prompt{n}@example.co.za"),
                    ..CustomerInput::default()
                },
            },
        };
        let sent = Instant::now();
        socket
            .send(Message::Binary(protocol::encode(&frame)?.into()))
            .await?;
        let reply = tokio::time::timeout(REPLY_TIMEOUT, async {
            while let Some(message) = socket.next().await {
                if let Ok(Message::Binary(bytes)) = message
                    && let Ok(ServerFrame::Reply { id: got, ok, .. }) =
                        protocol::decode::<ServerFrame>(&bytes)
                    && got == id
                {
                    return ok.is_some();
                }
            }
            false
        })
        .await;
        let answered = matches!(reply, Ok(true));
        samples.push((sent, answered.then(|| sent.elapsed())));
    }
    Ok(samples)
}

fn summary(name: &str, samples: &[Sample], from: Instant, to: Instant) {
    let inside: Vec<&Sample> = samples
        .iter()
        .filter(|(sent, _)| *sent >= from && *sent < to)
        .collect();
    let mut ms: Vec<f64> = inside
        .iter()
        .filter_map(|(_, rtt)| rtt.map(|d| d.as_secs_f64() * 1000.0))
        .collect();
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| {
        ms.get(((ms.len() as f64 * q).ceil() as usize).saturating_sub(1))
            .copied()
            .unwrap_or(f64::NAN)
    };
    println!(
        "live_{name}: commands={} unanswered={} round_trip_ms p50={:.1} p95={:.1} p99={:.1} max={:.1}",
        inside.len(),
        inside.len() - ms.len(),
        at(0.5),
        at(0.95),
        at(0.99),
        ms.last().copied().unwrap_or(f64::NAN),
    );
}

pub async fn run(file: &Path, url: &str, every_ms: u64) -> Fallible<()> {
    let target = Target::parse(url)?;
    let bytes = std::fs::read(file)?;
    let run = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default();
    let run = format!("imp{run:x}");
    let importer = sign_up(&target, &run, 0).await?;
    let other = sign_up(&target, &run, 1).await?;
    let mut a = Importer {
        socket: open(&target, &importer.cookie).await?,
        next_id: 0,
        import_id: None,
        completed_at: None,
    };
    let b = open(&target, &other.cookie).await?;
    let stop = Arc::new(AtomicBool::new(false));
    let asking = tokio::spawn(keep_asking(
        b,
        Duration::from_millis(every_ms.max(1)),
        stop.clone(),
    ));

    let started = Instant::now();
    tokio::time::sleep(SETTLE).await;
    let upload_at = Instant::now();
    let ReplyBody::ImportUpload {
        upload_id,
        chunk_bytes,
    } = a
        .ask(Command::BeginImport {
            kind: KIND,
            template: TEMPLATE,
            file_name: "bench.xlsx".into(),
            size: u32::try_from(bytes.len())?,
        })
        .await?
    else {
        return Err("BeginImport: unexpected reply".into());
    };
    for (i, piece) in bytes.chunks(chunk_bytes.max(1) as usize).enumerate() {
        a.ask(Command::UploadImportChunk {
            upload_id: upload_id.clone(),
            offset: u32::try_from(i * chunk_bytes as usize)?,
            data: piece.to_vec(),
        })
        .await?;
    }
    let uploaded_at = Instant::now();
    let ReplyBody::ImportPreview { preview } = a
        .ask(Command::CheckImport {
            upload_id: upload_id.clone(),
        })
        .await?
    else {
        return Err("CheckImport: unexpected reply".into());
    };
    let checked_at = Instant::now();
    let ReplyBody::Committed { id, .. } = a
        .ask(Command::ConfirmImport {
            upload_id,
            include_duplicates: false,
            allow_duplicate_file: false,
        })
        .await?
    else {
        return Err("ConfirmImport: unexpected reply".into());
    };
    a.import_id = id;
    let confirmed_at = Instant::now();
    let completed_at = a.wait_completed().await?;
    tokio::time::sleep(SETTLE).await;
    stop.store(true, Ordering::SeqCst);
    let samples = asking.await??;
    let ended = Instant::now();

    let secs = |from: Instant, to: Instant| to.duration_since(from).as_secs_f64();
    println!(
        "live_file: rows={} valid={} invalid={} bytes={}",
        preview.rows,
        preview.valid,
        preview.invalid,
        bytes.len()
    );
    println!(
        "live_seconds: upload={:.2} check={:.2} confirm={:.2} commit={:.2}",
        secs(upload_at, uploaded_at),
        secs(uploaded_at, checked_at),
        secs(checked_at, confirmed_at),
        secs(confirmed_at, completed_at),
    );
    summary("before", &samples, started, upload_at);
    summary("upload_and_check", &samples, upload_at, confirmed_at);
    summary("during_commit", &samples, confirmed_at, completed_at);
    summary("after", &samples, completed_at, ended);
    Ok(())
}
