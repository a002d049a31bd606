//! A rolling restart: two server processes on one PostgreSQL database, test
//! clients sending commands through both, and one node stopped with SIGTERM
//! mid-way. Its sockets are closed with 1001; their clients reconnect to the
//! other node and resume from the last `seq` they saw, and a command whose
//! reply was lost is sent again under its id. In the end every client has
//! seen every delta of its merchant exactly once and in order (no gap, no
//! duplicate, no resync), and every command ran exactly once.
//! The load generator's own run goes through a rolling restart of both
//! nodes too, and its report must say the same.
//! (SQLite serves one node, so there is no other node to move to.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::server_process::ServerProcess;
use common::{Browser, Database, Ended, Socket, customer_input};
use loadtest::report::Report;
use loadtest::run::{Plan, Probe, run_with};
use loadtest::target::Target;
use paydesk::auth::keys::ServerKey;
use protocol::{ClientFrame, Command, ReplyBody, Resume, ServerFrame};
use tokio::sync::watch;
use tokio::task::JoinHandle;

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
    node_at(dir, url, key, run, "127.0.0.1:0").await
}

/// A node listening on `bind`: a restarted node comes back on its address.
async fn node_at(
    dir: &std::path::Path,
    url: &str,
    key: &str,
    run: usize,
    bind: &str,
) -> ServerProcess {
    let env = [
        ("SECRET_KEY", key),
        ("SIGNUP_LIMIT_PER_ADDRESS", "100"),
        ("SOCKET_FRAME_BURST", "100000"),
        ("BIND", bind),
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

/// Sockets of the load generator's run: 4 merchants, 4 sockets each, two on
/// each node (socket `i` starts on node `(i / 4) % 2`).
const LOAD_MERCHANTS: usize = 4;
const LOAD_SOCKETS: usize = 16;
/// Commits to wait for between the steps: enough to pass through every socket.
const STEP: u64 = 2 * LOAD_SOCKETS as u64;

/// Waits until `reached` holds, while the load runs; a socket lost or the
/// run ending first (its 300 s bound) fails the test with the report.
async fn until(
    load: &mut JoinHandle<Result<Report, String>>,
    probe: &Probe,
    what: &str,
    reached: impl Fn() -> bool,
) {
    while !reached() {
        if load.is_finished() || probe.sockets_lost() > 0 {
            probe.stop();
            let report = load.await.unwrap();
            panic!("the load ended before {what}: {report:#?}");
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The load generator itself (its library, reconnecting) runs through a
/// rolling restart of both nodes: A stops with SIGTERM and comes back on its
/// address, then B does the same, while commands flow at a steady rate. Every
/// socket is closed with 1001 at least once and reopens on the other node,
/// resuming. The report must show every command committed exactly once,
/// every delta on every other socket of its merchant, none missing or
/// doubled, no resync.
#[tokio::test(flavor = "multi_thread")]
async fn the_load_generator_runs_through_a_rolling_restart() {
    let Some(Database::Postgres(base)) = Database::postgres() else {
        return eprintln!("TEST_DATABASE_URL is not set: two nodes need PostgreSQL; skipped");
    };
    let url = common::fresh_postgres_database(&base).await;
    let key = ServerKey::generate().unwrap().to_hex();
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut a = node(dir_a.path(), &url, &key, 1).await;
    let mut b = node(dir_b.path(), &url, &key, 2).await;
    let targets = [&a, &b].map(|n| Target::parse(&n.base).unwrap());
    let address = |n: &ServerProcess| n.base.trim_start_matches("http://").to_string();
    let (address_a, address_b) = (address(&a), address(&b));

    let plan = Plan {
        run: "roll".into(),
        merchants: LOAD_MERCHANTS,
        sockets: LOAD_SOCKETS,
        // The test ends the sending phase; these only bound a run gone wrong.
        mutations: 1_000_000,
        rate: 40.0,
        duration: Duration::from_secs(300),
        bare: false,
        reconnect: true,
    };
    let probe = Arc::new(Probe::default());
    let mut load = tokio::spawn({
        let probe = probe.clone();
        async move {
            run_with(&targets, &plan, &probe)
                .await
                .map_err(|err| err.to_string())
        }
    });
    let flowing = |more: u64| {
        let from = probe.commits();
        let probe = probe.clone();
        move || probe.commits() >= from + more
    };

    until(&mut load, &probe, "commands flowed", flowing(STEP)).await;
    assert!(
        a.terminate(),
        "node A did not exit cleanly:\n{}",
        a.log_text()
    );
    // Half the sockets were on A: each reopens on B.
    let moved = LOAD_SOCKETS as u64 / 2;
    until(&mut load, &probe, "A's sockets moved to B", || {
        probe.reconnects() >= moved
    })
    .await;
    until(
        &mut load,
        &probe,
        "commands flowed through B alone",
        flowing(STEP),
    )
    .await;
    a = node_at(dir_a.path(), &url, &key, 3, &address_a).await;
    until(
        &mut load,
        &probe,
        "commands flowed after A came back",
        flowing(STEP),
    )
    .await;

    assert!(
        b.terminate(),
        "node B did not exit cleanly:\n{}",
        b.log_text()
    );
    // Every socket is on B by now: all reopen on the restarted A.
    let moved = moved + LOAD_SOCKETS as u64;
    until(&mut load, &probe, "B's sockets moved to A", || {
        probe.reconnects() >= moved
    })
    .await;
    until(
        &mut load,
        &probe,
        "commands flowed through the restarted A",
        flowing(STEP),
    )
    .await;
    b = node_at(dir_b.path(), &url, &key, 4, &address_b).await;
    until(
        &mut load,
        &probe,
        "commands flowed after B came back",
        flowing(STEP),
    )
    .await;

    probe.stop();
    let report = load.await.unwrap().unwrap();
    let resumed = report
        .reconnect
        .clone()
        .expect("a reconnecting run reports resumes");
    let summary = format!("{report:#?}");
    assert_eq!(report.failures, 0, "{summary}");
    assert_eq!(report.sockets_lost, 0, "{summary}");
    assert_eq!(report.committed, report.mutations_sent, "{summary}");
    assert!(report.committed >= 6 * STEP, "{summary}");
    // Every delta reached every other socket of its merchant, in order.
    let others = (LOAD_SOCKETS / LOAD_MERCHANTS - 1) as u64;
    assert_eq!(
        report.deltas_expected,
        report.committed * others,
        "{summary}"
    );
    assert_eq!(report.deltas_received, report.deltas_expected, "{summary}");
    assert_eq!(report.deltas_out_of_order, 0, "{summary}");
    assert_eq!(resumed.deltas_missing, 0, "{summary}");
    assert_eq!(resumed.deltas_duplicated, 0, "{summary}");
    assert_eq!(resumed.resyncs, 0, "{summary}");
    assert_eq!(resumed.commands_committed_twice, 0, "{summary}");
    // The stops hit sockets: A's twice over, B's once, all closed with 1001.
    assert_eq!(resumed.reconnects, moved, "{summary}");
    assert_eq!(
        resumed.close_codes.keys().collect::<Vec<_>>(),
        ["1001"],
        "{summary}"
    );
    assert!(report.clean(), "{summary}");
    // Every command ran exactly once: one customer each.
    let db = paydesk::store::Db::connect(&url).await.unwrap();
    let customers: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM customers")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(customers as u64, report.committed, "{summary}");
    eprintln!("{}", report.human());
    drop((a, b));
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
