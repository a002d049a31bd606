//! A bare actix actor fan-out server, the second baseline for the live socket
//! (loadtest/fanout-bench.sh): the product's own stack (actix-web,
//! actix-web-actors, one actor per merchant, one per socket) without the
//! database. A command goes to the merchant's actor, which takes the next
//! `seq`, replies, encodes the delta once and sends the same bytes to every
//! socket actor; a socket whose mailbox is full is dropped.

#[path = "../../bare_protocol.rs"]
mod bare_protocol;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use actix::prelude::*;
use actix_web::{App, Error, HttpRequest, HttpResponse, HttpServer, web};
use actix_web_actors::ws;
use bytes::Bytes;
use clap::Parser;
use protocol::Command;

use bare_protocol::Asked;

/// Mailboxes of a merchant actor and of a socket actor, as in the product.
const MERCHANT_MAILBOX: usize = 1_024;
const SOCKET_MAILBOX: usize = 256;

#[derive(Parser, Debug)]
#[command(about = "A bare actix actor fan-out server (no database)")]
struct Args {
    /// Port to listen on, on 127.0.0.1 only.
    #[arg(long, default_value_t = 18094)]
    port: u16,
}

#[derive(Message, Clone)]
#[rtype(result = "()")]
struct Frame(Bytes);

#[derive(Message)]
#[rtype(result = "()")]
struct Join {
    socket: u64,
    outbox: Recipient<Frame>,
}

#[derive(Message)]
#[rtype(result = "()")]
struct Leave(u64);

#[derive(Message)]
#[rtype(result = "()")]
struct Run {
    socket: u64,
    id: String,
    command: Command,
}

struct MerchantActor {
    name: String,
    seq: u64,
    members: HashMap<u64, Recipient<Frame>>,
}

impl Actor for MerchantActor {
    type Context = Context<Self>;
    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(MERCHANT_MAILBOX);
    }
}

impl Handler<Join> for MerchantActor {
    type Result = ();
    fn handle(&mut self, join: Join, _ctx: &mut Self::Context) {
        let welcome = Bytes::from(bare_protocol::welcome(&self.name, self.seq));
        if join.outbox.try_send(Frame(welcome)).is_ok() {
            self.members.insert(join.socket, join.outbox);
        }
    }
}

impl Handler<Leave> for MerchantActor {
    type Result = ();
    fn handle(&mut self, leave: Leave, _ctx: &mut Self::Context) {
        self.members.remove(&leave.0);
    }
}

impl Handler<Run> for MerchantActor {
    type Result = ();
    fn handle(&mut self, run: Run, _ctx: &mut Self::Context) {
        self.seq += 1;
        let seq = self.seq;
        if let Some(sender) = self.members.get(&run.socket) {
            let reply = Bytes::from(bare_protocol::committed(run.id, seq));
            let _ = sender.try_send(Frame(reply));
        }
        // Encoded once; every socket gets the same bytes (a reference count).
        let delta = Bytes::from(bare_protocol::delta(seq, run.command));
        self.members
            .retain(|_, member| member.try_send(Frame(delta.clone())).is_ok());
    }
}

struct SocketActor {
    id: u64,
    merchant: Addr<MerchantActor>,
}

impl Actor for SocketActor {
    type Context = ws::WebsocketContext<Self>;
    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(SOCKET_MAILBOX);
    }
    fn stopped(&mut self, _ctx: &mut Self::Context) {
        self.merchant.do_send(Leave(self.id));
    }
}

impl Handler<Frame> for SocketActor {
    type Result = ();
    fn handle(&mut self, frame: Frame, ctx: &mut Self::Context) {
        ctx.binary(frame.0);
    }
}

impl StreamHandler<Result<ws::Message, ws::ProtocolError>> for SocketActor {
    fn handle(&mut self, item: Result<ws::Message, ws::ProtocolError>, ctx: &mut Self::Context) {
        match item {
            Ok(ws::Message::Binary(bytes)) => match bare_protocol::read(&bytes) {
                Asked::Hello => self.merchant.do_send(Join {
                    socket: self.id,
                    outbox: ctx.address().recipient(),
                }),
                Asked::Command { id, command } => self.merchant.do_send(Run {
                    socket: self.id,
                    id,
                    command: *command,
                }),
                Asked::Other => {}
            },
            Ok(ws::Message::Ping(payload)) => ctx.pong(&payload),
            Ok(ws::Message::Close(reason)) => {
                ctx.close(reason);
                ctx.stop();
            }
            Ok(_) => {}
            Err(_) => ctx.stop(),
        }
    }
}

struct Shared {
    merchants: Mutex<HashMap<String, Addr<MerchantActor>>>,
    ids: AtomicU64,
}

async fn socket(
    request: HttpRequest,
    body: web::Payload,
    shared: web::Data<Arc<Shared>>,
) -> Result<HttpResponse, Error> {
    let name = request
        .headers()
        .get("cookie")
        .and_then(|value| value.to_str().ok())
        .and_then(bare_protocol::merchant_of_cookie)
        .ok_or_else(|| actix_web::error::ErrorUnauthorized("no bare session cookie"))?;
    let merchant = {
        let mut merchants = shared.merchants.lock().unwrap_or_else(|p| p.into_inner());
        merchants
            .entry(name.clone())
            .or_insert_with(|| {
                MerchantActor {
                    name,
                    seq: 0,
                    members: HashMap::new(),
                }
                .start()
            })
            .clone()
    };
    let id = shared.ids.fetch_add(1, Ordering::Relaxed);
    ws::start(SocketActor { id, merchant }, &request, body)
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let shared = Arc::new(Shared {
        merchants: Mutex::default(),
        ids: AtomicU64::new(0),
    });
    HttpServer::new(move || {
        App::new()
            .app_data(web::Data::new(shared.clone()))
            .route("/ws", web::get().to(socket))
    })
    // As the backend: no Nagle delay, default workers (one per core).
    .tcp_nodelay(true)
    .bind(("127.0.0.1", args.port))?
    .run()
    .await
}
