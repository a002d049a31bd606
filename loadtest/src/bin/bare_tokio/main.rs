//! A bare tokio-tungstenite fan-out server, the first baseline for the live
//! socket (loadtest/fanout-bench.sh): no database, no actors. Each merchant is
//! a counter and a list of sockets behind a mutex; a command takes the next
//! `seq`, replies, encodes its delta once and hands the same bytes to every
//! socket of the merchant through a bounded channel. A socket whose channel is
//! full is dropped, as the product drops a session that falls behind.

#[path = "../../bare_protocol.rs"]
mod bare_protocol;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};

use bare_protocol::Asked;

/// Frames waiting for one socket; the product's session mailbox holds as many.
const OUTBOX: usize = 256;

#[derive(Parser, Debug)]
#[command(about = "A bare tokio-tungstenite fan-out server (no database)")]
struct Args {
    /// Port to listen on, on 127.0.0.1 only.
    #[arg(long, default_value_t = 18093)]
    port: u16,
}

#[derive(Default)]
struct Merchant {
    seq: u64,
    members: HashMap<u64, mpsc::Sender<Bytes>>,
}

type Merchants = Arc<Mutex<HashMap<String, Arc<Mutex<Merchant>>>>>;

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let listener = TcpListener::bind(("127.0.0.1", args.port)).await?;
    let merchants: Merchants = Arc::default();
    let ids = Arc::new(AtomicU64::new(0));
    loop {
        let (stream, _) = listener.accept().await?;
        // As the product and the load generator: no Nagle delay.
        stream.set_nodelay(true)?;
        let id = ids.fetch_add(1, Ordering::Relaxed);
        tokio::spawn(serve(stream, id, merchants.clone()));
    }
}

async fn serve(stream: TcpStream, id: u64, merchants: Merchants) {
    let mut cookie = None;
    // The error type is tungstenite's own handshake answer, not ours to shrink.
    #[allow(clippy::result_large_err)]
    let callback = |request: &Request, response: Response| {
        cookie = request
            .headers()
            .get("cookie")
            .and_then(|value| value.to_str().ok())
            .and_then(bare_protocol::merchant_of_cookie);
        Ok(response)
    };
    let Ok(socket) = tokio_tungstenite::accept_hdr_async(stream, callback).await else {
        return;
    };
    let Some(name) = cookie else {
        return;
    };
    let merchant = lock(&merchants).entry(name.clone()).or_default().clone();
    let (mut sink, mut source) = socket.split();
    let (outbox, mut queued) = mpsc::channel::<Bytes>(OUTBOX);
    let writer = tokio::spawn(async move {
        while let Some(bytes) = queued.recv().await {
            if sink.send(Message::Binary(bytes)).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    while let Some(Ok(message)) = source.next().await {
        let Message::Binary(bytes) = message else {
            continue;
        };
        match bare_protocol::read(&bytes) {
            Asked::Hello => {
                let mut merchant = lock(&merchant);
                // Under the lock: no delta can fall between Welcome's seq and the first.
                let welcome = Bytes::from(bare_protocol::welcome(&name, merchant.seq));
                if outbox.try_send(welcome).is_err() {
                    break;
                }
                merchant.members.insert(id, outbox.clone());
            }
            Asked::Command {
                id: command_id,
                command,
            } => {
                let mut merchant = lock(&merchant);
                merchant.seq += 1;
                let seq = merchant.seq;
                if outbox
                    .try_send(Bytes::from(bare_protocol::committed(command_id, seq)))
                    .is_err()
                {
                    break;
                }
                // Encoded once; every socket gets the same bytes (a reference count).
                let delta = Bytes::from(bare_protocol::delta(seq, *command));
                merchant
                    .members
                    .retain(|_, member| member.try_send(delta.clone()).is_ok());
            }
            Asked::Other => {}
        }
    }
    lock(&merchant).members.remove(&id);
    drop(outbox);
    let _ = writer.await;
}
