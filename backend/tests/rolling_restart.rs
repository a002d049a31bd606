//! A rolling restart: two server processes on one PostgreSQL database, test
//! clients sending commands through both, and one node stopped with SIGTERM
//! mid-way. Its sockets are closed with 1001; their clients reconnect to the
//! other node and resume from the last `seq` they saw, and a command whose
//! reply was lost is sent again under its id. In the end every client has
//! seen every delta of its merchant exactly once and in order (no gap, no
//! duplicate, no resync), and every command ran exactly once.
//! (SQLite serves one node, so there is no other node to move to.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::server_process::ServerProcess;
use common::{Browser, Database, Ended, Socket, customer_input};
use paydesk::auth::keys::ServerKey;
use protocol::{ClientFrame, Command, ReplyBody, Resume, ServerFrame};
use tokio::sync::watch;

const MERCHANTS: usize = 3;
/// Clients per merchant, alternating between the two nodes.
const CLIENTS: usize = 4;
const COMMANDS: usize = 25;
const PATIENCE: Duration = Duration::from_secs(30);

/// What one client saw.
#[derive(Debug, Default)]
struct Seen {
    /// Every delta's `seq`, in arrival order.
    deltas: Vec<u64>,
    /// The first `seq` it knew (its first Welcome).
    start: u64,
    /// Close codes of the sockets the server closed.
    closes: Vec<Option<u16>>,
    resyncs: usize,
    /// Replies that were errors, by command id.
    failed: Vec<String>,
}

struct Client {
    nodes: [Browser; 2],
    on: usize,
    socket: Socket,
    epoch: String,
    last: u64,
    seen: Seen,
}

impl Client {
    async fn connect(browser: &Browser, resume: Option<Resume>) -> (Socket, ServerFrame) {
        let mut socket = browser.socket().await;
        let hello = ClientFrame::Hello {
            resume,
            build: "t".into(),
            merchant_id: None,
            mode: None,
        };
        socket.send_raw(protocol::encode(&hello).unwrap()).await;
        let welcome = socket.next_within(PATIENCE).await.unwrap();
        (socket, welcome)
    }

    async fn start(nodes: [Browser; 2], on: usize) -> Client {
        let (socket, welcome) = Client::connect(&nodes[on], None).await;
        let ServerFrame::Welcome { epoch, seq, .. } = welcome else {
            panic!("{welcome:?}")
        };
        Client {
            nodes,
            on,
            socket,
            epoch,
            last: seq,
            seen: Seen {
                start: seq,
                ..Default::default()
            },
        }
    }

    /// The server closed the socket: reconnect to the other node, resuming.
    async fn reconnect(&mut self, code: Option<u16>) {
        self.seen.closes.push(code);
        self.on = 1 - self.on;
        let resume = Resume {
            epoch: self.epoch.clone(),
            seq: self.last,
        };
        let (socket, welcome) = Client::connect(&self.nodes[self.on], Some(resume)).await;
        assert!(
            matches!(welcome, ServerFrame::Welcome { .. }),
            "{welcome:?}"
        );
        self.socket = socket;
    }

    /// Handles one frame; returns the reply when it is the one for `id`.
    fn take(&mut self, frame: ServerFrame, id: Option<&str>) -> Option<ServerFrame> {
        match frame {
            ServerFrame::Delta { seq, .. } => {
                self.seen.deltas.push(seq);
                self.last = self.last.max(seq);
                None
            }
            ServerFrame::Resync { .. } => {
                self.seen.resyncs += 1;
                None
            }
            ServerFrame::Reply { id: ref rid, .. } if Some(rid.as_str()) == id => Some(frame),
            _ => None,
        }
    }

    /// Sends a command and waits for its reply, across a node going away:
    /// the command is sent again under the same id on the other node.
    async fn command(&mut self, id: &str, command: Command) -> ServerFrame {
        loop {
            let frame = ClientFrame::Command {
                id: id.into(),
                command: command.clone(),
            };
            self.socket
                .send_raw(protocol::encode(&frame).unwrap())
                .await;
            loop {
                match self.socket.next_within(PATIENCE).await {
                    Ok(frame) => {
                        if let Some(reply) = self.take(frame, Some(id)) {
                            return reply;
                        }
                    }
                    Err(Ended::Closed(code)) => {
                        self.reconnect(code).await;
                        break;
                    }
                    Err(Ended::TimedOut) => panic!("no reply to {id}"),
                }
            }
        }
    }

    /// Reads deltas until the stream's last `seq` has arrived.
    async fn drain_to(&mut self, last: u64) {
        while self.last < last {
            match self.socket.next_within(PATIENCE).await {
                Ok(frame) => {
                    self.take(frame, None);
                }
                Err(Ended::Closed(code)) => self.reconnect(code).await,
                Err(Ended::TimedOut) => panic!("deltas stopped at {} of {last}", self.last),
            }
        }
    }
}

async fn node(dir: &std::path::Path, url: &str, key: &str, run: usize) -> ServerProcess {
    let env = [
        ("SECRET_KEY", key),
        ("SIGNUP_LIMIT_PER_ADDRESS", "100"),
        ("SOCKET_FRAME_BURST", "100000"),
    ];
    ServerProcess::start(dir, url, run, &env).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rolling_restart_loses_and_doubles_no_delta() {
    let Some(Database::Postgres(base)) = Database::postgres() else {
        return eprintln!("TEST_DATABASE_URL is not set: two nodes need PostgreSQL; skipped");
    };
    let url = common::fresh_postgres_database(&base).await;
    let key = ServerKey::generate().unwrap().to_hex();
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut a = node(dir_a.path(), &url, &key, 1).await;
    let b = node(dir_b.path(), &url, &key, 2).await;

    let replies = Arc::new(AtomicUsize::new(0));
    let (finals_tx, finals) = watch::channel(None::<HashMap<String, u64>>);
    let mut clients = Vec::new();
    let mut emails = Vec::new();
    let mut epochs = HashMap::new();
    for m in 0..MERCHANTS {
        let email = format!("roll{m}@example.co.za");
        let jar = Arc::new(reqwest::cookie::Jar::default());
        let signed_up = a
            .browser(&jar)
            .sign_up("Thandi Nkosi", &email, "karoo-sunset-41", "Karoo Gym")
            .await;
        assert_eq!(signed_up.status(), 200);
        for c in 0..CLIENTS {
            let nodes = [a.browser(&jar), b.browser(&jar)];
            let client = Client::start(nodes, c % 2).await;
            epochs.insert(email.clone(), client.epoch.clone());
            let (replies, mut finals, email) = (replies.clone(), finals.clone(), email.clone());
            clients.push(tokio::spawn(async move {
                let mut client = client;
                for n in 0..COMMANDS {
                    let id = format!("m{m}-c{c}-{n}");
                    let input = customer_input(&id, &format!("{id}@example.co.za"));
                    let reply = client.command(&id, Command::CreateCustomer { input }).await;
                    if !matches!(
                        reply,
                        ServerFrame::Reply {
                            ok: Some(ReplyBody::Committed { .. }),
                            ..
                        }
                    ) {
                        client.seen.failed.push(format!("{id}: {reply:?}"));
                    }
                    replies.fetch_add(1, Ordering::SeqCst);
                }
                let last = finals
                    .wait_for(Option::is_some)
                    .await
                    .unwrap()
                    .as_ref()
                    .unwrap()[&email];
                client.drain_to(last).await;
                client.seen
            }));
        }
        emails.push(email);
    }

    // A third of the way in, node A is stopped as an orchestrator would.
    let total = MERCHANTS * CLIENTS * COMMANDS;
    while replies.load(Ordering::SeqCst) < total / 3 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let at_stop = replies.load(Ordering::SeqCst);
    assert!(
        at_stop < total,
        "every command was answered before node A was stopped"
    );
    assert!(
        a.terminate(),
        "node A did not exit cleanly:\n{}",
        a.log_text()
    );

    // Once every command is answered, the streams' last seqs are final.
    while replies.load(Ordering::SeqCst) < total {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let db = paydesk::store::Db::connect(&url).await.unwrap();
    let mut last_of = HashMap::new();
    for email in &emails {
        let seq: i64 = sqlx::query_scalar("SELECT seq FROM merchant_streams WHERE epoch = $1")
            .bind(&epochs[email])
            .fetch_one(&db.pool)
            .await
            .unwrap();
        last_of.insert(email.clone(), seq as u64);
    }
    finals_tx.send(Some(last_of.clone())).unwrap();

    let mut moved = 0;
    for (i, client) in clients.into_iter().enumerate() {
        let seen = client.await.unwrap();
        let email = &emails[i / CLIENTS];
        assert!(seen.failed.is_empty(), "{:?}", seen.failed);
        assert_eq!(seen.resyncs, 0, "client {i} was asked to resync");
        let expected: Vec<u64> = (seen.start + 1..=last_of[email]).collect();
        assert_eq!(seen.deltas, expected, "client {i} saw a gap or a duplicate");
        assert!(
            seen.closes.iter().all(|code| *code == Some(1001)),
            "client {i} was cut, not closed with 1001: {:?}",
            seen.closes
        );
        moved += usize::from(!seen.closes.is_empty());
    }
    assert_eq!(
        moved,
        MERCHANTS * CLIENTS / 2,
        "every client of node A moved to node B"
    );
    // Every command ran exactly once: one customer and one event each.
    let customers: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM customers")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(customers as usize, total);
    drop(b);
}

/// A client whose node stops while its command is committing sends the
/// command again to the other node, which may start it before the first run
/// commits. The retry waits behind the first run's lock on the stream and
/// then answers with the first run's reply: the command runs once.
#[actix_web::test]
async fn a_retry_racing_the_first_run_on_another_node_gets_its_reply() {
    let Some(Database::Postgres(base)) = Database::postgres() else {
        return eprintln!("TEST_DATABASE_URL is not set: two nodes need PostgreSQL; skipped");
    };
    let url = common::fresh_postgres_database(&base).await;
    let a = common::TestApp::start_at(&url).await;
    let b = common::TestApp::start_at(&url).await;
    let owner = a.merchant("race@example.co.za").await;
    let (_, merchant_id) = a.owner_ids("race@example.co.za").await;
    let on_b = Browser {
        http: owner.http.clone(),
        jar: owner.jar.clone(),
        base: b.origin(),
    };
    let (mut tab_a, _) = owner.live().await;
    let (mut tab_b, _) = on_b.live().await;

    // Hold the stream's lock, so both runs pass their check for a stored
    // reply and then wait for the stream.
    let db = paydesk::store::Db::connect(&url).await.unwrap();
    let mut hold = db.begin_write().await.unwrap();
    sqlx::query("UPDATE merchant_streams SET seq = seq WHERE merchant_id = $1")
        .bind(&merchant_id)
        .execute(&mut *hold)
        .await
        .unwrap();
    let command = Command::CreateCustomer {
        input: customer_input("Once", "once@example.co.za"),
    };
    for tab in [&mut tab_a, &mut tab_b] {
        let frame = ClientFrame::Command {
            id: "same-id".into(),
            command: command.clone(),
        };
        tab.send(&frame).await;
    }
    loop {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() \
             AND wait_event_type = 'Lock'",
        )
        .fetch_one(&db.pool)
        .await
        .unwrap();
        if waiting >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    hold.rollback().await.unwrap();

    let is_reply = |f: &ServerFrame| matches!(f, ServerFrame::Reply { id, .. } if id == "same-id");
    let first = tab_a.next_matching(is_reply).await;
    let second = tab_b.next_matching(is_reply).await;
    assert!(
        matches!(
            first,
            ServerFrame::Reply {
                ok: Some(ReplyBody::Committed { .. }),
                ..
            }
        ),
        "{first:?}"
    );
    assert_eq!(first, second, "the retry gets the first run's reply");
    let customers: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM customers")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(customers, 1, "the command ran once");
}
