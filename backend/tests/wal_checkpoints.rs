//! SQLite: the group-commit writer's commits leave checkpointing to a
//! connection beside it (they checkpoint themselves only far past SQLite's
//! usual mark). The write-ahead log must still be copied into the database
//! as writes go on.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::{Database, TestApp, customer_input};
use paydesk::store::stream::{self, Actor, Cause, StreamKey, Work};
use paydesk::store::{Db, customers, events};
use protocol::Mode;

/// Writes whose log (about 6 MB) stays below the writer's own mark.
const WRITES: usize = 300;

#[actix_web::test]
async fn the_log_is_checkpointed_beside_the_writer() {
    let app = TestApp::start(Database::Sqlite).await;
    app.merchant("wal@example.co.za").await;
    let (_, merchant_id) = app.owner_ids("wal@example.co.za").await;
    let key = StreamKey::new(merchant_id, Mode::Test);
    let served = Db::connect(&app.database_url).await.unwrap();
    events::open_stream(&served, &key.merchant_id, key.mode)
        .await
        .unwrap();
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&served.pool)
        .await
        .unwrap();
    // A copy no server uses: nothing else commits on it, and so nothing
    // else checkpoints it.
    let served_path = file_of(&app.database_url);
    let path = format!("{served_path}.alone.db");
    std::fs::copy(&served_path, &path).unwrap();
    let store = Db::connect(&format!("sqlite://{path}")).await.unwrap();
    let size = || std::fs::metadata(&path).unwrap().len();
    let before = size();
    for i in 0..WRITES {
        let id = format!("cus_wal_{i}");
        let input = customer_input("Wal Customer", &format!("w{i}@example.co.za"));
        let cause = Cause::background(Actor::Scheduler);
        stream::write(&store, &key, &cause, async |tx, _seq| {
            customers::insert_customer(tx, &key.merchant_id, key.mode, &id, &input, 1).await?;
            Ok(Work::changed(Vec::new(), ()))
        })
        .await
        .unwrap();
    }
    // The last checkpoint runs beside the last writes.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let copied = size() - before;
    // What a full checkpoint now still copies is what those beside the
    // writer had not: at most the writes since the last of them.
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&store.pool)
        .await
        .unwrap();
    let all = size() - before;
    eprintln!("copied beside the writer: {copied} of {all} bytes");
    assert!(all > 0);
    assert!(
        copied * 10 >= all * 8,
        "only {copied} of {all} bytes of {WRITES} writes were copied beside the writer"
    );
}

fn file_of(url: &str) -> String {
    let rest = url.trim_start_matches("sqlite://");
    rest.split('?').next().unwrap().to_string()
}
