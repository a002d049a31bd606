//! Stopping a node through the path SIGTERM takes (`NodeHandle::stop(true)`,
//! which `app::stop_on_signal` calls): every socket gets a Close frame with
//! 1001 (going away), so browsers reconnect at once, and nothing panics.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{Database, TestApp, customer_input};
use protocol::*;

static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Counts panics on every thread (the server's workers included).
fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            default(info);
        }));
    });
}

async fn graceful_shutdown_closes_every_socket_with_1001(db: Database) {
    count_panics();
    let app = TestApp::start(db).await;
    let first = app.merchant("first@example.co.za").await;
    let second = app.merchant("second@example.co.za").await;
    let (mut tab, _) = first.live().await;
    let (mut other_merchant, _) = second.live().await;
    let mut before_hello = first.socket().await;
    // Reads and a command on their way while the node stops: their database
    // work ends inside the server's runtime, not after it.
    for n in 0..200 {
        tab.send(&ClientFrame::Query {
            id: format!("read-{n}"),
            query: Query::ListCustomers {
                search: None,
                status: CustomerStatus::All,
                cursor: None,
                limit: None,
            },
        })
        .await;
    }
    tab.send(&ClientFrame::Command {
        id: "in-flight".into(),
        command: Command::CreateCustomer {
            input: customer_input("Late", "late@example.co.za"),
        },
    })
    .await;

    let handle = app.handle.clone();
    let stopping = actix_web::rt::spawn(async move { handle.stop(true).await });
    assert_eq!(tab.closed().await, Some(1001));
    assert_eq!(other_merchant.closed().await, Some(1001));
    assert_eq!(before_hello.closed().await, Some(1001));
    stopping.await.unwrap();

    assert!(
        first.try_socket(&app.origin()).await.is_err(),
        "a stopped node opens no socket"
    );
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "nothing panicked");
}

on_both_databases!(graceful_shutdown_closes_every_socket_with_1001);
