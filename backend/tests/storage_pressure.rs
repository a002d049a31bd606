//! The database under pressure: a write lock held by someone else, a long
//! import beside other merchants' work. Every request waits its turn and
//! gets a real answer; one that cannot get a turn in time is told the
//! system is busy (a translated code it may retry), never `internal`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::import_support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::{Database, Socket, TestApp, committed_id, customer_input, error_of};
use import_support::{HEADER, completed, confirm, ok, upload};
use protocol::*;
use sqlx::{Connection, Executor, SqliteConnection};

/// Longer than the ten seconds SQLite's own busy handler used to wait
/// before a write failed, and well inside the write wait (30 s).
const HOLD: Duration = Duration::from_secs(12);

/// Someone outside the app (another process, an operator's shell) holding
/// the SQLite file's write lock until `release`.
struct LockHolder {
    conn: SqliteConnection,
}

impl LockHolder {
    async fn take(database_url: &str) -> LockHolder {
        let mut conn = SqliteConnection::connect(database_url).await.unwrap();
        conn.execute("BEGIN IMMEDIATE").await.unwrap();
        LockHolder { conn }
    }

    async fn release(mut self) {
        self.conn.execute("COMMIT").await.unwrap();
        self.conn.close().await.unwrap();
    }
}

/// A frame may be long in coming here (it waits its turn behind a lock or
/// an import): generous, only so that a hung app fails the test.
const PATIENCE: Duration = Duration::from_secs(120);

/// A welcomed socket in test mode, however long the app needs.
async fn open(browser: &common::Browser) -> Socket {
    let mut tab = browser.socket().await;
    tab.wait_up_to(PATIENCE);
    tab.send(&ClientFrame::Hello {
        resume: None,
        build: "test".into(),
        merchant_id: None,
        mode: Some(Mode::Test),
    })
    .await;
    tab.next_matching(|f| matches!(f, ServerFrame::Welcome { .. }))
        .await;
    tab
}

async fn create_customer(tab: &mut Socket, id: &str, reference: &str) -> ServerFrame {
    let mut input = customer_input("Lerato Dube", "lerato@example.co.za");
    input.reference = reference.into();
    tab.command(id, Command::CreateCustomer { input }).await
}

/// While another connection holds the write lock for longer than SQLite
/// would wait by itself, a command and a sign-in wait their turn and
/// succeed once it lets go.
async fn writes_wait_for_a_lock_held_outside_the_app() {
    let app = TestApp::start(Database::Sqlite).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = open(&owner).await;
    app.merchant("teller@example.co.za").await;
    let teller = app.browser();

    let holder = LockHolder::take(&app.database_url).await;
    let (created, signed_in, ()) = tokio::join!(
        create_customer(&mut tab, "held-1", "HELD-1"),
        teller.sign_in("teller@example.co.za", "karoo-sunset-41", "/"),
        async {
            tokio::time::sleep(HOLD).await;
            holder.release().await;
        },
    );
    let customer_id = committed_id(created);
    assert!(customer_id.starts_with("cus_"), "{customer_id}");
    assert_eq!(signed_in.status(), 200, "sign-in waited its turn");
    assert_eq!(
        teller.session().await["user"]["email"],
        "teller@example.co.za"
    );
}

/// A write that cannot get its turn within the write wait is answered
/// `busy`, with nothing written; the same command succeeds once the lock is
/// let go.
async fn a_write_that_waits_too_long_is_answered_busy() {
    let app = TestApp::start_with(Database::Sqlite, |config| {
        config.database_write_wait_seconds = 1;
    })
    .await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = open(&owner).await;

    let holder = LockHolder::take(&app.database_url).await;
    let refused = error_of(create_customer(&mut tab, "busy-1", "BUSY-1").await);
    assert_eq!(refused.code, ErrorCode::Busy);
    holder.release().await;

    let created = create_customer(&mut tab, "busy-2", "BUSY-1").await;
    assert!(committed_id(created).starts_with("cus_"));
    let ReplyBody::CustomerPage { items, .. } = ok(tab
        .query(
            "list",
            Query::ListCustomers {
                search: Some("busy-1".into()),
                status: CustomerStatus::All,
                cursor: None,
                limit: None,
            },
        )
        .await)
    else {
        panic!("expected customers");
    };
    assert_eq!(items.len(), 1, "the busy answer wrote nothing");
}

#[actix_web::test]
async fn writes_wait_for_a_lock_held_outside_the_app_on_sqlite() {
    writes_wait_for_a_lock_held_outside_the_app().await
}

#[actix_web::test]
async fn a_write_that_waits_too_long_is_answered_busy_on_sqlite() {
    a_write_that_waits_too_long_is_answered_busy().await
}

/// `rows` valid rows over `rows / 4` customers.
fn import_csv(rows: usize) -> String {
    let mut csv = format!("{HEADER}\n");
    for i in 0..rows {
        // Four payments per customer, each on its own day (Tuesday to
        // Friday), so none repeats another.
        let (customer, day) = (i / 4, 10 + i % 4);
        csv.push_str(&format!(
            "CUST-{customer},Thandi,Mokoena,t{customer}@example.co.za,T Mokoena,500{customer:07},Current,Absa,632005,120.00,2026-03-{day},Subscription,no\n"
        ));
    }
    csv
}

/// Uploads, checks and confirms `csv` as the user would by default.
async fn confirm_import(tab: &mut Socket, name: &str, csv: &str) -> ServerFrame {
    let preview = upload(tab, name, csv.as_bytes()).await.unwrap();
    assert_eq!(preview.invalid, 0);
    confirm(tab, &preview.upload_id).await
}

/// While one merchant's long import writes batch after batch, another
/// merchant signs up, opens the app (its stream is made then), creates
/// customers and confirms an import of its own: every answer is a success.
async fn a_long_import_holds_up_no_other_merchant(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let importer = app.merchant("importer@example.co.za").await;
    let mut tab = open(&importer).await;
    let rows = 10_000;
    let import_id = committed_id(confirm_import(&mut tab, "long.csv", &import_csv(rows)).await);

    let done = AtomicBool::new(false);
    let import = async {
        let import = completed(&mut tab, &import_id).await;
        done.store(true, Ordering::SeqCst);
        import
    };
    let other = async {
        let neighbour = app.merchant("neighbour@example.co.za").await;
        let mut tab = open(&neighbour).await;
        let own = confirm_import(&mut tab, "own.csv", &import_csv(40)).await;
        assert!(committed_id(own).starts_with("imp_"));
        let mut made = 0;
        // At least a few, and for as long as the long import runs.
        while made < 5 || !done.load(Ordering::SeqCst) {
            let reply = create_customer(&mut tab, &format!("n-{made}"), &format!("N-{made}")).await;
            assert!(committed_id(reply).starts_with("cus_"), "customer {made}");
            made += 1;
        }
        made
    };
    let (import, made) = tokio::join!(import, other);
    assert_eq!((import.committed, import.failed), (rows as u32, 0));
    assert!(made >= 5);
}

on_both_databases!(a_long_import_holds_up_no_other_merchant);
