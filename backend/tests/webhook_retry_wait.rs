//! The wait before a webhook retry counts from the attempt's end, through
//! the real server: after an attempt that ran into its timeout, the next
//! is due no sooner than the documented wait after the timeout, not after
//! the attempt began.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use crate::common::{self, Database, TestApp, committed_id, customer_input};
use crate::webhook_support::{Receiver, add_endpoint, keys_of};
use backend::delivery_clock::DeliveryClock;
use paydesk::auth::keys::ServerKey;
use paydesk::domain::webhooks::schedule::RETRY_WAITS_MS;
use paydesk::store::Db;
use protocol::{Command, Mode};

const OWNER: &str = "owner@example.co.za";
const TIMEOUT_SECONDS: u64 = 2;

async fn a_retry_waits_from_the_end_of_a_timed_out_attempt(db: Database) {
    let key = ServerKey::generate().unwrap();
    let server_key = key.clone();
    let app = TestApp::start_with(db, move |config| {
        config.secret_key = Some(server_key);
        config.webhooks_allow_private_addresses = true;
        config.webhook_timeout_seconds = TIMEOUT_SECONDS;
        config.webhook_clock = DeliveryClock::default();
    })
    .await;
    let owner = app.merchant(OWNER).await;
    let (user_id, merchant_id) = app.owner_ids(OWNER).await;
    let mut socket: common::Socket = owner.open(Mode::Test).await;
    let receiver = Receiver::start(0).await;
    receiver.hang_next(1);
    let keys = keys_of(&key);
    let types = ["customer.created"];
    add_endpoint(
        &app.database_url,
        &keys,
        &merchant_id,
        &user_id,
        &receiver.url,
        &types,
    )
    .await;
    let input = customer_input("Thandi Nkosi", "thandi@example.co.za");
    committed_id(
        socket
            .command("c1", Command::CreateCustomer { input })
            .await,
    );
    receiver.wait_for(1).await;

    let store = Db::connect(&app.database_url).await.unwrap();
    for _ in 0..100 {
        let row: Option<(i64, i64, i64)> = sqlx::query_as(
            "SELECT last_attempt_at, last_duration_ms, next_attempt_at FROM webhook_deliveries \
             WHERE merchant_id = $1 AND attempts = 1",
        )
        .bind(&merchant_id)
        .fetch_optional(&store.pool)
        .await
        .unwrap();
        if let Some((began, duration_ms, next)) = row {
            assert!(
                duration_ms >= 1_900,
                "the attempt ran into its timeout: {duration_ms} ms"
            );
            let least = RETRY_WAITS_MS[0] * 9 / 10;
            assert!(
                next - (began + duration_ms) >= least - 50,
                "the retry is due {} ms after the attempt ended, {} ms after it began",
                next - (began + duration_ms),
                next - began
            );
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the timed-out attempt was not recorded");
}

on_both_databases!(a_retry_waits_from_the_end_of_a_timed_out_attempt);
