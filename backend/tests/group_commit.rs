//! Group commit: on SQLite, stream writes that arrive together share one
//! transaction, each under its own savepoint. A write that fails beside
//! others is rolled back alone; `seq` stays gap-free per stream; an answered
//! write survives a SIGKILL of the node. On PostgreSQL every write is its own
//! transaction and the same outcomes hold.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::server_process::ServerProcess;
use common::{Database, Socket, TestApp, customer_input};
use futures_util::SinkExt;
use paydesk::auth::keys::ServerKey;
use paydesk::error::AppError;
use paydesk::store::stream::{self, Actor, Cause, StreamKey, Work};
use paydesk::store::{Db, customers, events};
use protocol::{ClientFrame, Command, ErrorCode, Mode, ReplyBody, ServerFrame};
use tokio_tungstenite::tungstenite::Message;

/// The seqs of a stream's stored events, oldest first.
async fn event_seqs(db: &Db, key: &StreamKey) -> Vec<i64> {
    sqlx::query_scalar("SELECT seq FROM events WHERE merchant_id = $1 AND mode = $2 ORDER BY seq")
        .bind(&key.merchant_id)
        .bind(key.mode.as_str())
        .fetch_all(&db.pool)
        .await
        .unwrap()
}

pub(crate) async fn stream_seq(db: &Db, key: &StreamKey) -> i64 {
    sqlx::query_scalar("SELECT seq FROM merchant_streams WHERE merchant_id = $1 AND mode = $2")
        .bind(&key.merchant_id)
        .bind(key.mode.as_str())
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

async fn customer_exists(db: &Db, id: &str) -> bool {
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM customers WHERE id = $1")
        .bind(id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    count == 1
}

/// Waits until `count` writes are queued for the group (SQLite).
pub(crate) async fn until_queued(store: &Db, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while store.writes_waiting_for_group() < count {
        assert!(Instant::now() < deadline, "the writes never queued");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// What each write of the first test does after inserting its customer.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ending {
    Commit,
    Fail,
    NoChange,
    /// Its work succeeds, but one of the rows it writes with its event
    /// fails (a command reply stored twice): on SQLite they run after it
    /// gave the group's transaction back.
    FailInRows,
}

/// Twelve writes over four streams (two merchants, both modes), queued
/// behind a held write turn so that on SQLite they are all in one group:
/// each inserts a customer; one fails after its insert, one says it changed
/// nothing, and two fail in their rows.
/// The others commit with gap-free seqs; the four leave no customer, no
/// event and no used seq behind.
async fn a_failed_write_rolls_back_alone(db: Database) {
    let app = TestApp::start(db).await;
    let mut keys = Vec::new();
    for email in ["first@example.co.za", "second@example.co.za"] {
        app.merchant(email).await;
        let (_, merchant_id) = app.owner_ids(email).await;
        for mode in [Mode::Test, Mode::Live] {
            keys.push(StreamKey::new(merchant_id.clone(), mode));
        }
    }
    let store = Db::connect(&app.database_url).await.unwrap();
    let mut start = HashMap::new();
    for key in &keys {
        events::open_stream(&store, &key.merchant_id, key.mode)
            .await
            .unwrap();
        start.insert(key.clone(), stream_seq(&store, key).await);
    }
    let sqlite = app.database_url.starts_with("sqlite:");
    // On SQLite the writer of `store` takes the first write and then waits
    // for the file's turn; the others queue behind it until it is free.
    let held = if sqlite {
        Some(store.begin_write().await.unwrap())
    } else {
        None
    };
    let endings: Vec<Ending> = (0..12)
        .map(|i| match i {
            5 => Ending::Fail,
            6 => Ending::NoChange,
            8 | 11 => Ending::FailInRows,
            _ => Ending::Commit,
        })
        .collect();
    let mut handles = Vec::new();
    for (i, ending) in endings.iter().copied().enumerate() {
        let key = keys[i % keys.len()].clone();
        let store = store.clone();
        handles.push(actix_web::rt::spawn(async move {
            let id = format!("cus_group_{i}");
            let cause = Cause::background(Actor::Scheduler);
            let input = customer_input("Thandi Customer", &format!("c{i}@example.co.za"));
            let written = stream::write(&store, &key, &cause, async |tx, _seq| {
                customers::insert_customer(tx, &key.merchant_id, key.mode, &id, &input, 1).await?;
                let reply = || {
                    let run = events::CommandRun {
                        command_id: &id,
                        user_id: "usr_group",
                        fingerprint: "same",
                    };
                    events::command_reply_row(&key.merchant_id, key.mode, &run, vec![1])
                };
                match ending {
                    Ending::Commit => Ok(Work::changed(Vec::new(), ()).writing(reply())),
                    Ending::FailInRows => Ok(Work::changed(Vec::new(), ())
                        .writing(reply())
                        .writing(reply())),
                    Ending::Fail => Err(AppError::Code(ErrorCode::InvalidInput)),
                    Ending::NoChange => Ok(Work::Unchanged(())),
                }
            })
            .await;
            (key, id, written.map(|w| w.seq))
        }));
    }
    if let Some(held) = held {
        until_queued(&store, endings.len()).await;
        // Every write is queued now: the writer takes them all, in one group.
        held.rollback().await.unwrap();
    }
    let mut committed: HashMap<StreamKey, Vec<i64>> = HashMap::new();
    for (handle, ending) in handles.into_iter().zip(endings) {
        let (key, id, result) = handle.await.unwrap();
        match (ending, result) {
            (Ending::Commit, Ok(Some(seq))) => {
                assert!(
                    customer_exists(&store, &id).await,
                    "{id} was answered but not stored"
                );
                committed.entry(key).or_default().push(seq as i64);
            }
            (Ending::Fail, Err(AppError::Code(ErrorCode::InvalidInput))) => {
                assert!(
                    !customer_exists(&store, &id).await,
                    "{id} failed but left its customer"
                );
            }
            (Ending::FailInRows, Err(_)) => {
                assert!(
                    !customer_exists(&store, &id).await,
                    "{id}'s rows failed but it left its customer"
                );
            }
            (Ending::NoChange, Ok(None)) => {
                assert!(
                    !customer_exists(&store, &id).await,
                    "{id} changed nothing but left its customer"
                );
            }
            (ending, result) => panic!("{id} ({ending:?}) ended with {result:?}"),
        }
    }
    for key in &keys {
        let first = start[key];
        let mut seqs = committed.remove(key).unwrap_or_default();
        seqs.sort_unstable();
        let expected: Vec<i64> = (first + 1..=first + seqs.len() as i64).collect();
        assert_eq!(seqs, expected, "the answered seqs of {key:?} have a gap");
        assert_eq!(stream_seq(&store, key).await, first + seqs.len() as i64);
        let stored: Vec<i64> = event_seqs(&store, key)
            .await
            .into_iter()
            .filter(|seq| *seq > first)
            .collect();
        assert_eq!(
            stored, expected,
            "the stored events of {key:?} differ from the answers"
        );
    }
}

/// Sends a command without waiting for its reply.
async fn send_command(socket: &mut Socket, id: &str, command: Command) {
    socket
        .send(&ClientFrame::Command {
            id: id.into(),
            command,
        })
        .await;
}

/// Many merchants' commands at once, one of each merchant's refused: every
/// merchant's answered seqs, its deltas and its stored events run without a
/// gap, in order.
async fn seq_stays_gap_free_across_merchants(db: Database) {
    const MERCHANTS: usize = 5;
    const COMMANDS: usize = 12;
    let app = TestApp::start(db).await;
    let store = Db::connect(&app.database_url).await.unwrap();
    let mut merchants = Vec::new();
    for m in 0..MERCHANTS {
        let email = format!("owner{m}@example.co.za");
        let browser = app.merchant(&email).await;
        let (_, merchant_id) = app.owner_ids(&email).await;
        let sender = browser.open(Mode::Test).await;
        let watcher = browser.open(Mode::Test).await;
        merchants.push((merchant_id, sender, watcher));
    }
    // Interleaved, so the merchants' commands arrive together.
    for c in 0..COMMANDS {
        for (m, (_, sender, _)) in merchants.iter_mut().enumerate() {
            // The fourth command of each merchant is refused inside its write.
            let email = if c == 3 {
                "not an address".to_string()
            } else {
                format!("m{m}c{c}@example.co.za")
            };
            let input = customer_input("Thandi Customer", &email);
            send_command(
                sender,
                &format!("m{m}c{c}"),
                Command::CreateCustomer { input },
            )
            .await;
        }
    }
    for (m, (merchant_id, sender, watcher)) in merchants.iter_mut().enumerate() {
        let mut seqs = Vec::new();
        for c in 0..COMMANDS {
            let id = format!("m{m}c{c}");
            let reply = sender
                .next_matching(|f| matches!(f, ServerFrame::Reply { id: rid, .. } if *rid == id))
                .await;
            match reply {
                ServerFrame::Reply {
                    ok: Some(ReplyBody::Committed { seq, .. }),
                    ..
                } => seqs.push(seq),
                ServerFrame::Reply { error: Some(_), .. } if c == 3 => {}
                other => panic!("command {c} of {merchant_id}: {other:?}"),
            }
        }
        assert_eq!(seqs.len(), COMMANDS - 1);
        let first = seqs[0];
        let expected: Vec<u64> = (first..first + seqs.len() as u64).collect();
        assert_eq!(
            seqs, expected,
            "the replies of {merchant_id} skip or repeat a seq"
        );
        // The other tab sees every delta once, in seq order.
        let last = *expected.last().unwrap();
        let mut seen = Vec::new();
        while seen.last() != Some(&last) {
            if let ServerFrame::Delta { seq, .. } = watcher
                .next_matching(|f| matches!(f, ServerFrame::Delta { .. }))
                .await
                && seq >= first
            {
                seen.push(seq);
            }
        }
        assert_eq!(
            seen, expected,
            "the deltas of {merchant_id} came out of order"
        );
        let key = StreamKey::new(merchant_id.clone(), Mode::Test);
        let stored = event_seqs(&store, &key).await;
        let all: Vec<i64> = (1..=stream_seq(&store, &key).await).collect();
        assert_eq!(stored, all, "the stored events of {merchant_id} have a gap");
    }
}

/// A node started from the built binary with the test's key; SIGKILL on demand.
async fn start_node(dir: &Path, url: &str, key: &ServerKey, run: usize) -> ServerProcess {
    let key = key.to_hex();
    ServerProcess::start(dir, url, run, &[("SECRET_KEY", key.as_str())]).await
}

/// One merchant's tab creating customers one after another until its socket
/// dies, recording every customer whose reply said committed.
async fn create_until_closed(mut socket: Socket, m: usize, acknowledged: Arc<Mutex<Vec<String>>>) {
    for c in 0.. {
        let input = customer_input("Thandi Customer", &format!("k{m}-{c}@example.co.za"));
        let frame = ClientFrame::Command {
            id: format!("k{m}-{c}"),
            command: Command::CreateCustomer { input },
        };
        let bytes = protocol::encode(&frame).unwrap();
        if socket.stream.send(Message::binary(bytes)).await.is_err() {
            return;
        }
        loop {
            match socket.next_within(Duration::from_secs(30)).await {
                Ok(ServerFrame::Reply {
                    ok: Some(ReplyBody::Committed { id: Some(id), .. }),
                    ..
                }) => {
                    acknowledged.lock().unwrap().push(id);
                    break;
                }
                Ok(ServerFrame::Reply { .. }) => break,
                Ok(_) => {}
                Err(_) => return,
            }
        }
    }
}

/// Several merchants write at once while the node is killed with SIGKILL:
/// after a restart every command that was answered committed is there, and
/// every stream's events still run without a gap.
async fn a_kill_mid_group_loses_no_answered_command(db: Database) {
    const MERCHANTS: usize = 6;
    let dir = tempfile::tempdir().unwrap();
    let url = match db {
        Database::Sqlite => format!("sqlite://{}", dir.path().join("test.db").display()),
        Database::Postgres(base) => common::fresh_postgres_database(&base).await,
    };
    let key = ServerKey::generate().unwrap();
    let mut server = start_node(dir.path(), &url, &key, 1).await;
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let mut writers = Vec::new();
    for m in 0..MERCHANTS {
        let browser = server.browser(&Arc::new(reqwest::cookie::Jar::default()));
        let response = browser
            .sign_up(
                "Thandi Nkosi",
                &format!("kill{m}@example.co.za"),
                "karoo-sunset-41",
                "Karoo Gym",
            )
            .await;
        assert_eq!(response.status(), 200);
        let socket = browser.open(Mode::Test).await;
        writers.push(actix_web::rt::spawn(create_until_closed(
            socket,
            m,
            acknowledged.clone(),
        )));
    }
    // Kill while every merchant still has a command in flight.
    let deadline = Instant::now() + Duration::from_secs(120);
    while acknowledged.lock().unwrap().len() < 60 {
        assert!(Instant::now() < deadline, "the writers never got going");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    server.kill();
    for writer in writers {
        writer.await.unwrap();
    }
    let answered = acknowledged.lock().unwrap().clone();

    let _restarted = start_node(dir.path(), &url, &key, 2).await;
    let store = Db::connect(&url).await.unwrap();
    for id in &answered {
        assert!(
            customer_exists(&store, id).await,
            "{id} was answered committed but is gone"
        );
    }
    let streams: Vec<(String, String)> =
        sqlx::query_as("SELECT merchant_id, mode FROM merchant_streams ORDER BY merchant_id, mode")
            .fetch_all(&store.pool)
            .await
            .unwrap();
    for (merchant_id, mode) in streams {
        let key = StreamKey::new(merchant_id, Mode::parse(&mode).unwrap());
        let all: Vec<i64> = (1..=stream_seq(&store, &key).await).collect();
        assert_eq!(
            event_seqs(&store, &key).await,
            all,
            "the events of {key:?} have a gap"
        );
    }
}

/// A write alone in its group whose rows fail: on SQLite they run with the
/// group's `COMMIT`. Nothing of it stays, and the next write commits.
async fn a_lone_write_failing_in_its_rows_leaves_nothing(db: Database) {
    let app = TestApp::start(db).await;
    app.merchant("lone@example.co.za").await;
    let (_, merchant_id) = app.owner_ids("lone@example.co.za").await;
    let key = StreamKey::new(merchant_id, Mode::Test);
    let store = Db::connect(&app.database_url).await.unwrap();
    events::open_stream(&store, &key.merchant_id, key.mode)
        .await
        .unwrap();
    let before = stream_seq(&store, &key).await;
    let write = |id: &'static str, rows: usize| {
        let (store, key) = (store.clone(), key.clone());
        async move {
            let cause = Cause::background(Actor::Scheduler);
            let input = customer_input("Lone Customer", &format!("{id}@example.co.za"));
            stream::write(&store, &key, &cause, async |tx, _seq| {
                customers::insert_customer(tx, &key.merchant_id, key.mode, id, &input, 1).await?;
                let run = events::CommandRun {
                    command_id: id,
                    user_id: "usr_lone",
                    fingerprint: "same",
                };
                let mut work = Work::changed(Vec::new(), ());
                for _ in 0..rows {
                    work = work.writing(events::command_reply_row(
                        &key.merchant_id,
                        key.mode,
                        &run,
                        vec![1],
                    ));
                }
                Ok(work)
            })
            .await
        }
    };
    assert!(write("cus_lone_twice", 2).await.is_err());
    assert!(!customer_exists(&store, "cus_lone_twice").await);
    assert_eq!(stream_seq(&store, &key).await, before);
    let next = write("cus_lone_once", 1).await.unwrap();
    assert_eq!(next.seq, Some(before as u64 + 1));
    assert!(customer_exists(&store, "cus_lone_once").await);
}

on_both_databases!(
    a_failed_write_rolls_back_alone,
    a_lone_write_failing_in_its_rows_leaves_nothing,
    seq_stays_gap_free_across_merchants,
    a_kill_mid_group_loses_no_answered_command,
);
