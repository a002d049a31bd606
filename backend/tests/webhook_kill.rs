//! A node killed with SIGKILL in the middle of a webhook delivery loses
//! nothing: the delivery was queued with its event, its claim is a lease,
//! and the restarted node sends it (same event id, same bytes) once the
//! lease has run out.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::webhook_support;

use std::path::Path;
use std::time::Duration;

use common::server_process::ServerProcess;
use common::{Database, committed_id, customer_input};
use paydesk::auth::keys::ServerKey;
use protocol::{Command, Mode};
use webhook_support::{Receiver, add_endpoint, keys_of};

const OWNER: &str = "owner@example.co.za";

/// A node with the test's key, allowed to deliver to the local receiver.
async fn start_node(dir: &Path, url: &str, key: &ServerKey, run: usize) -> ServerProcess {
    let key = key.to_hex();
    let env = [
        ("SECRET_KEY", key.as_str()),
        ("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", "true"),
        // Short, so the dead node's lease (twice this and 5 s) ends soon.
        ("WEBHOOK_TIMEOUT_SECONDS", "2"),
    ];
    ServerProcess::start(dir, url, run, &env).await
}

async fn a_kill_mid_delivery_loses_nothing(db: Database) {
    let dir = tempfile::tempdir().unwrap();
    let url = match db {
        Database::Sqlite => format!("sqlite://{}", dir.path().join("test.db").display()),
        Database::Postgres(base) => common::fresh_postgres_database(&base).await,
    };
    let key = ServerKey::generate().unwrap();
    let mut server = start_node(dir.path(), &url, &key, 1).await;
    let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
    let browser = server.browser(&jar);
    let signed_up = browser
        .sign_up("Thandi Nkosi", OWNER, "karoo-sunset-41", "Karoo Gym")
        .await;
    assert_eq!(signed_up.status(), 200);
    let mut socket = browser.open(Mode::Test).await;
    let store = paydesk::store::Db::connect(&url).await.unwrap();
    let (user_id, merchant_id): (String, String) = sqlx::query_as(
        "SELECT u.id, m.merchant_id FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.email = $1",
    )
    .bind(OWNER)
    .fetch_one(&store.pool)
    .await
    .unwrap();
    let receiver = Receiver::start(0).await;
    receiver.hang_next(1);
    add_endpoint(
        &url,
        &keys_of(&key),
        &merchant_id,
        &user_id,
        &receiver.url,
        &["customer.created"],
    )
    .await;
    committed_id(
        socket
            .command(
                "c1",
                Command::CreateCustomer {
                    input: customer_input("Customer", "c@example.co.za"),
                },
            )
            .await,
    );
    // The first attempt is in flight (the receiver holds it): kill the node.
    let first = receiver.wait_for(1).await.remove(0);
    server.kill();
    drop(socket);

    let _restarted = start_node(dir.path(), &url, &key, 2).await;
    let second = receiver.wait_for(2).await.remove(1);
    assert_eq!(second.header("webhook-id"), first.header("webhook-id"));
    assert_eq!(second.body, first.body);
    for _ in 0..300 {
        let delivered: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'delivered'")
                .fetch_one(&store.pool)
                .await
                .unwrap();
        if delivered == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the delivery was not recorded as delivered after the restart");
}

on_both_databases!(a_kill_mid_delivery_loses_nothing);
