//! Two nodes on one PostgreSQL database: the node writing a confirmed import
//! is killed with SIGKILL mid-way, and the other node, still running, takes
//! the import over once the dead node's lease runs out and finishes it, with
//! every row written exactly once. (SQLite serves one node, so there is no
//! other node to take over; `import_resume.rs` covers its restarts.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::import_support;

use std::time::{Duration, Instant};

use common::server_process::ServerProcess;
use common::{Database, committed_id};
use import_support::{confirm, upload};
use paydesk::auth::keys::ServerKey;
use protocol::Mode;

const ROWS: usize = 6_000;

/// One valid once-off row per customer, in March 2026 after the pinned date.
fn file() -> String {
    let mut csv = format!("{}\n", import_support::HEADER);
    for i in 0..ROWS {
        csv.push_str(&format!(
            "TAKE-{i},Thandi,Mokoena,t{i}@example.co.za,T Mokoena,500{i:07},Current,Absa,632005,120.00,2026-03-10,Subscription,no\n"
        ));
    }
    csv
}

async fn node(dir: &std::path::Path, url: &str, key: &str, run: usize) -> ServerProcess {
    let env = [
        ("SECRET_KEY", key),
        ("BUSINESS_DATE", "2026-03-02"),
        ("IMPORT_LEASE_SECONDS", "2"),
    ];
    ServerProcess::start(dir, url, run, &env).await
}

/// (status, committed rows, payments written by the import).
async fn state_of(db: &paydesk::store::Db, import_id: &str) -> (String, i64, i64) {
    let (status, committed): (String, i64) =
        sqlx::query_as("SELECT status, committed_rows FROM imports WHERE id = $1")
            .bind(import_id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    let payments: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payments WHERE import_id = $1")
        .bind(import_id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    (status, committed, payments)
}

#[tokio::test(flavor = "multi_thread")]
async fn another_node_finishes_an_import_whose_node_died() {
    let Some(Database::Postgres(base)) = Database::postgres() else {
        return eprintln!("TEST_DATABASE_URL is not set: two nodes need PostgreSQL; skipped");
    };
    let url = common::fresh_postgres_database(&base).await;
    let key = ServerKey::generate().unwrap().to_hex();
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut a = node(dir_a.path(), &url, &key, 1).await;
    let b = node(dir_b.path(), &url, &key, 2).await;

    let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
    let browser = a.browser(&jar);
    let signed_up = browser
        .sign_up(
            "Thandi Nkosi",
            "imports@example.co.za",
            "karoo-sunset-41",
            "Karoo Gym",
        )
        .await;
    assert_eq!(signed_up.status(), 200);
    let mut tab = browser.open(Mode::Test).await;
    tab.wait_up_to(Duration::from_secs(60));
    let preview = upload(&mut tab, "takeover.csv", file().as_bytes())
        .await
        .unwrap();
    assert_eq!(preview.invalid, 0);
    let import_id = committed_id(confirm(&mut tab, &preview.upload_id).await);

    // Node A claims the import it confirmed; kill it once a batch is in.
    let db = paydesk::store::Db::connect(&url).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (status, committed, _) = state_of(&db, &import_id).await;
        assert_eq!(
            status, "committing",
            "the import ended before node A could be killed"
        );
        if committed > 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "node A wrote no batch:\n{}",
            a.log_text()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    a.kill();
    drop(tab);
    let (_, at_kill, _) = state_of(&db, &import_id).await;
    assert!(
        at_kill < ROWS as i64,
        "node A finished before it was killed"
    );

    // Node B, running all along, finishes it.
    let deadline = Instant::now() + Duration::from_secs(180);
    let (committed, payments) = loop {
        let (status, committed, payments) = state_of(&db, &import_id).await;
        if status == "completed" {
            break (committed, payments);
        }
        assert!(
            Instant::now() < deadline,
            "node B did not finish the import ({committed} of {ROWS}):\n{}",
            b.log_text()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(committed, ROWS as i64);
    assert_eq!(payments, ROWS as i64, "every row written exactly once");
    assert!(a.log_text().contains(&import_id), "node A wrote it first");
    let b_log = b.log_text();
    assert!(
        b_log.contains("writing an import") && b_log.contains(&import_id),
        "node B took it over:\n{b_log}"
    );
    assert!(!b_log.contains("import stopped"), "{b_log}");
}
