//! Webhooks through the real app: an event written by a command becomes a
//! signed delivery that the official Standard Webhooks verifier accepts; a
//! change that rolled back sends nothing; a rolled secret signs with both;
//! a receiver that fails is tried again on the documented schedule (the
//! delivery job's clock moved ahead) until it answers, and one that never
//! does gets its endpoint paused and the owners mailed; internal addresses
//! are refused when the endpoint is added and again at delivery.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::webhook_support;

use std::time::Duration;

use backend::delivery_clock::DeliveryClock;
use common::{Database, TestApp, committed_id, customer_input, error_of};
use paydesk::auth::keys::ServerKey;
use paydesk::domain::webhooks::endpoints::{self, check_address};
use paydesk::domain::webhooks::schedule::{MAX_ATTEMPTS, RETRY_WAITS_MS};
use paydesk::domain::webhooks::signing::{new_signing_secret, signature_header};
use paydesk::error::AppError;
use paydesk::store::Db;
use protocol::{
    Command, DeliveryState, ErrorCode, HistoryAction, HistoryActorKind, HistoryFilter, Mode, Query,
    ReplyBody, ServerFrame,
};
use webhook_support::{
    Receiver, add_endpoint, as_owner, keys_of, roll_secret, signed_headers,
    verify_with_standardwebhooks,
};

const OWNER: &str = "owner@example.co.za";

async fn start(db: Database, allow_private: bool, clock: &DeliveryClock) -> (TestApp, ServerKey) {
    let key = ServerKey::generate().unwrap();
    let (server_key, clock) = (key.clone(), clock.clone());
    let app = TestApp::start_with(db, move |config| {
        config.secret_key = Some(server_key);
        config.webhooks_allow_private_addresses = allow_private;
        config.webhook_clock = clock;
    })
    .await;
    (app, key)
}

async fn create_customer(socket: &mut common::Socket, n: usize) -> String {
    committed_id(
        socket
            .command(
                &format!("c{n}"),
                Command::CreateCustomer {
                    input: customer_input(&format!("Customer {n}"), &format!("c{n}@example.co.za")),
                },
            )
            .await,
    )
}

async fn count(db: &Db, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

async fn deliveries_are_signed_per_the_standard(db: Database) {
    let (app, key) = start(db, true, &DeliveryClock::default()).await;
    let keys = keys_of(&key);
    let owner = app.merchant(OWNER).await;
    let (user_id, merchant_id) = app.owner_ids(OWNER).await;
    // The test stream's first row is made when a tab first opens it.
    let mut socket = owner.open(Mode::Test).await;
    let receiver = Receiver::start(0).await;
    let (endpoint_id, secret) = add_endpoint(
        &app.database_url,
        &keys,
        &merchant_id,
        &user_id,
        &receiver.url,
        &["customer.created"],
    )
    .await;
    assert!(secret.starts_with("whsec_"));
    let store = Db::connect(&app.database_url).await.unwrap();
    // Nothing was stored in clear.
    let stored: String = sqlx::query_scalar("SELECT secret FROM webhook_endpoints")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert!(!stored.contains(secret.trim_start_matches("whsec_")));

    let customer_id = create_customer(&mut socket, 1).await;
    let first = receiver.wait_for(1).await.remove(0);
    let payload: serde_json::Value = serde_json::from_str(&first.body).unwrap();
    assert_eq!(payload["type"], "customer.created");
    assert_eq!(payload["mode"], "test");
    assert_eq!(payload["data"]["id"], customer_id.as_str());
    assert_eq!(payload["id"], first.header("webhook-id"));
    assert_eq!(first.header("content-type"), "application/json");

    let headers = signed_headers(&first);
    let mut changed = first.body.clone().into_bytes();
    changed[first.body.len() / 2] ^= 1;
    let changed = String::from_utf8_lossy(&changed).into_owned();
    let wrong_secret = new_signing_secret().unwrap();
    // Signed by the product's own signer, ten minutes ago: only the time is wrong.
    let old = chrono_free_now() - 600;
    let mut old_headers = headers.clone();
    old_headers.insert("webhook-timestamp".into(), old.to_string());
    old_headers.insert(
        "webhook-signature".into(),
        signature_header(&[&secret], first.header("webhook-id"), old, &first.body).unwrap(),
    );
    let verdicts = verify_with_standardwebhooks(&[
        (secret.clone(), first.body.clone(), headers.clone()),
        (secret.clone(), changed, headers.clone()),
        (wrong_secret.clone(), first.body.clone(), headers.clone()),
        (secret.clone(), first.body.clone(), old_headers),
    ]);
    assert_eq!(
        verdicts,
        vec![true, false, false, false],
        "good, changed byte, wrong secret, old timestamp"
    );

    // A command that is refused rolls back: no delivery for it.
    let refused = socket
        .command(
            "bad",
            Command::CreateCustomer {
                input: customer_input("No Mail", "not-an-address"),
            },
        )
        .await;
    assert_eq!(error_of(refused).code, ErrorCode::InvalidInput);
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM webhook_deliveries").await,
        1
    );

    // During a roll, the old and the new secret both verify.
    let new_secret = roll_secret(&app.database_url, &keys, &merchant_id, &endpoint_id).await;
    assert_ne!(new_secret, secret);
    create_customer(&mut socket, 2).await;
    let second = receiver.wait_for(2).await.remove(1);
    let headers = signed_headers(&second);
    assert_eq!(headers["webhook-signature"].split(' ').count(), 2);
    let verdicts = verify_with_standardwebhooks(&[
        (secret, second.body.clone(), headers.clone()),
        (new_secret, second.body.clone(), headers.clone()),
        (wrong_secret, second.body.clone(), headers),
    ]);
    assert_eq!(
        verdicts,
        vec![true, true, false],
        "old secret, new secret, another"
    );
}

fn chrono_free_now() -> i64 {
    paydesk::ids::now_ms() / 1000
}

/// Plays attempt after attempt: waits for the receiver to see attempt
/// `seen + 1`, then moves the job's clock past the next wait (its longest
/// jitter included). The wait counts from when the job recorded the
/// attempt's end, which may come just after the receiver saw it: the clock
/// is moved on again until the next attempt arrives.
async fn play_attempts(
    receiver: &Receiver,
    clock: &DeliveryClock,
    attempts: usize,
) -> Vec<webhook_support::Received> {
    for attempt in 1..attempts {
        receiver.wait_for(attempt).await;
        for _ in 0..50 {
            clock.advance(RETRY_WAITS_MS[attempt - 1] * 11 / 10 + 1_000);
            for _ in 0..10 {
                if receiver.received().len() > attempt {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            if receiver.received().len() > attempt {
                break;
            }
        }
    }
    receiver.wait_for(attempts).await
}

async fn a_failing_receiver_gets_the_event_on_schedule(db: Database) {
    let clock = DeliveryClock::default();
    let (app, key) = start(db, true, &clock).await;
    let owner = app.merchant(OWNER).await;
    let (user_id, merchant_id) = app.owner_ids(OWNER).await;
    // The test stream's first row is made when a tab first opens it.
    let mut socket = owner.open(Mode::Test).await;
    let receiver = Receiver::start(3).await;
    add_endpoint(
        &app.database_url,
        &keys_of(&key),
        &merchant_id,
        &user_id,
        &receiver.url,
        &["customer.created"],
    )
    .await;
    create_customer(&mut socket, 1).await;

    let received = play_attempts(&receiver, &clock, 4).await;
    // The same event, the same bytes, each time.
    assert!(received.iter().all(|r| r.body == received[0].body));
    assert!(
        received
            .iter()
            .all(|r| r.header("webhook-id") == received[0].header("webhook-id"))
    );
    // Each retry came no sooner than its documented wait, less the jitter.
    let times: Vec<i64> = received
        .iter()
        .map(|r| r.header("webhook-timestamp").parse().unwrap())
        .collect();
    for (n, pair) in times.windows(2).enumerate() {
        let least = RETRY_WAITS_MS[n] * 9 / 10 / 1000 - 1;
        assert!(pair[1] - pair[0] >= least, "retry {n}: {times:?}");
    }
    let store = Db::connect(&app.database_url).await.unwrap();
    for _ in 0..100 {
        if count(
            &store,
            "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'delivered' AND attempts = 4",
        )
        .await
            == 1
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the delivery was not recorded as delivered on its fourth attempt");
}

async fn an_endpoint_that_never_answers_is_paused_and_owners_mailed(db: Database) {
    let clock = DeliveryClock::default();
    let (app, key) = start(db, true, &clock).await;
    let owner = app.merchant(OWNER).await;
    let (user_id, merchant_id) = app.owner_ids(OWNER).await;
    // The test stream's first row is made when a tab first opens it.
    let mut socket = owner.open(Mode::Test).await;
    let receiver = Receiver::start(usize::MAX).await;
    let (endpoint_id, _) = add_endpoint(
        &app.database_url,
        &keys_of(&key),
        &merchant_id,
        &user_id,
        &receiver.url,
        &["customer.created"],
    )
    .await;
    create_customer(&mut socket, 1).await;
    play_attempts(&receiver, &clock, MAX_ATTEMPTS as usize).await;

    let mails = app
        .mails_containing(OWNER, &format!("/developers/webhooks/{endpoint_id}"), 1)
        .await;
    assert!(
        mails[0].contains(&receiver.url),
        "the mail names the endpoint"
    );
    let store = Db::connect(&app.database_url).await.unwrap();
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM webhook_endpoints WHERE enabled = 0"
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'failed'"
        )
        .await,
        1
    );
    let causes = app.event_causes(OWNER, Mode::Test).await;
    assert!(
        causes
            .iter()
            .any(|c| c.actor_kind == "webhooks" && c.actor_id.as_deref() == Some(&endpoint_id))
    );
    // The account history names the endpoint the delivery job paused.
    let entries = crate::history::history(&mut socket, "h", HistoryFilter::default()).await;
    let paused = entries
        .iter()
        .find(|e| e.actor_kind == HistoryActorKind::Webhooks)
        .unwrap_or_else(|| panic!("no entry of the pause: {entries:?}"));
    assert_eq!(paused.record_kind, "webhook_endpoint");
    assert_eq!(paused.record_id.as_deref(), Some(endpoint_id.as_str()));
    assert_eq!(paused.record_name.as_deref(), Some(receiver.url.as_str()));
    assert_eq!(paused.action, HistoryAction::Updated);
    assert!(
        paused.fields.contains(&"disabledReason".to_string()),
        "{paused:?}"
    );
    // Paused, it gets nothing more; nothing further is mailed.
    create_customer(&mut socket, 2).await;
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM webhook_deliveries").await,
        1
    );
    assert_eq!(receiver.received().len(), MAX_ATTEMPTS as usize);

    // The receiver is fixed: enabled again and the failed delivery resent,
    // it arrives, and the log shows the answer.
    receiver.fail_next(0);
    let resent = as_owner(&app.database_url, &merchant_id, async |tx, key| {
        let now = paydesk::ids::now_ms();
        assert!(endpoints::set_enabled(tx, key, &endpoint_id, true, now).await?);
        endpoints::resend_failed(tx, key, &endpoint_id, None, now).await
    })
    .await;
    assert_eq!(resent, 1);
    let received = receiver.wait_for(MAX_ATTEMPTS as usize + 1).await;
    assert_eq!(received.last().unwrap().body, received[0].body);
    let key = paydesk::store::stream::StreamKey::new(merchant_id.as_str(), Mode::Test);
    for _ in 0..100 {
        let log = paydesk::store::webhooks::list_deliveries(&store, &key, &endpoint_id, 50)
            .await
            .unwrap();
        assert_eq!(log.len(), 1);
        if log[0].state == "delivered" {
            assert_eq!(log[0].last_status, Some(204));
            assert_eq!(log[0].attempts, MAX_ATTEMPTS + 1);
            // Another merchant's stream sees none of it.
            let other = paydesk::store::stream::StreamKey::new("mer_other", Mode::Test);
            let none = paydesk::store::webhooks::list_deliveries(&store, &other, &endpoint_id, 50);
            assert!(none.await.unwrap().is_empty());
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the resent delivery was not recorded as delivered");
}

fn forbidden(result: Result<impl Sized, AppError>) -> bool {
    matches!(result, Err(AppError::Invalid(fields)) if fields.iter().any(|f| f.code == ErrorCode::WebhookAddressForbidden))
}

#[actix_web::test]
async fn internal_addresses_are_refused_when_added() {
    for url in [
        "http://127.0.0.1/hooks",
        "http://10.1.2.3/hooks",
        "https://172.16.0.1/hooks",
        "https://172.31.9.9/hooks",
        "https://192.168.0.10/hooks",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]:8080/hooks",
        "http://[::ffff:10.0.0.1]/hooks",
        // A name that resolves to a loopback address.
        "http://localhost:9000/hooks",
    ] {
        assert!(
            forbidden(check_address(url, false).await),
            "{url} must be refused"
        );
    }
    // The setting for on-premises installs lets them through.
    assert!(
        check_address("http://127.0.0.1:9000/hooks", true)
            .await
            .is_ok()
    );
}

fn refused_with(result: Result<impl Sized, AppError>, code: ErrorCode) -> bool {
    matches!(result, Err(AppError::Invalid(fields)) if fields.iter().any(|f| f.field == "url" && f.code == code))
}

#[actix_web::test]
async fn public_addresses_must_be_https_and_resolve() {
    assert!(check_address("https://1.1.1.1/hooks", false).await.is_ok());
    assert!(refused_with(
        check_address("http://1.1.1.1/hooks", false).await,
        ErrorCode::InvalidUrl
    ));
    // `.invalid` never resolves (RFC 6761).
    assert!(refused_with(
        check_address("https://hooks.paydesk.invalid/hooks", false).await,
        ErrorCode::WebhookAddressUnresolved
    ));
}

async fn a_private_address_is_refused_again_at_delivery(db: Database) {
    let (app, key) = start(db, false, &DeliveryClock::default()).await;
    let owner = app.merchant(OWNER).await;
    let (user_id, merchant_id) = app.owner_ids(OWNER).await;
    // The test stream's first row is made when a tab first opens it.
    let mut socket = owner.open(Mode::Test).await;
    let receiver = Receiver::start(0).await;
    // Saved while its name led elsewhere; now it leads to this machine.
    add_endpoint(
        &app.database_url,
        &keys_of(&key),
        &merchant_id,
        &user_id,
        &receiver.url,
        &["customer.created"],
    )
    .await;
    create_customer(&mut socket, 1).await;
    let store = Db::connect(&app.database_url).await.unwrap();
    for _ in 0..100 {
        let tried: Option<String> =
            sqlx::query_scalar("SELECT last_error FROM webhook_deliveries WHERE attempts = 1")
                .fetch_optional(&store.pool)
                .await
                .unwrap()
                .flatten();
        if let Some(error) = tried {
            assert!(error.contains("private"), "{error}");
            assert!(receiver.received().is_empty(), "nothing was sent");
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the delivery was never attempted");
}

/// The endpoint page reads its endpoint and delivery log over the socket;
/// another merchant asking for them finds nothing.
async fn the_delivery_log_is_read_over_the_socket(db: Database) {
    let (app, key) = start(db, true, &DeliveryClock::default()).await;
    let owner = app.merchant(OWNER).await;
    let (user_id, merchant_id) = app.owner_ids(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let receiver = Receiver::start(1).await;
    let (endpoint_id, _) = add_endpoint(
        &app.database_url,
        &keys_of(&key),
        &merchant_id,
        &user_id,
        &receiver.url,
        &["customer.created"],
    )
    .await;
    create_customer(&mut socket, 1).await;
    receiver.wait_for(1).await;

    match socket.query("e", Query::ListWebhookEndpoints {}).await {
        ServerFrame::Reply {
            ok:
                Some(ReplyBody::WebhookEndpoints {
                    endpoints,
                    event_types,
                }),
            ..
        } => {
            assert_eq!(endpoints.len(), 1);
            assert_eq!(endpoints[0].id, endpoint_id);
            assert_eq!(
                endpoints[0].event_types,
                vec!["customer.created".to_string()]
            );
            assert!(endpoints[0].enabled);
            assert!(event_types.contains(&"transaction.paid".to_string()));
        }
        other => panic!("{other:?}"),
    }
    let query = Query::ListWebhookDeliveries {
        endpoint_id: endpoint_id.clone(),
    };
    let mut logged = None;
    for n in 0..100 {
        match socket.query(&format!("d{n}"), query.clone()).await {
            ServerFrame::Reply {
                ok: Some(ReplyBody::WebhookDeliveries { deliveries }),
                ..
            } if deliveries.first().is_some_and(|d| d.attempts == 1) => {
                logged = Some(deliveries);
                break;
            }
            ServerFrame::Reply { ok: Some(_), .. } => {
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            other => panic!("{other:?}"),
        }
    }
    let deliveries = logged.expect("the first attempt in the log");
    assert_eq!(deliveries.len(), 1);
    assert_eq!(deliveries[0].event_type, "customer.created");
    assert_eq!(deliveries[0].last_status, Some(500));
    assert_eq!(deliveries[0].last_response.as_deref(), Some("not yet"));
    assert_eq!(deliveries[0].state, DeliveryState::Pending);

    let stranger = app.merchant("other@example.co.za").await;
    let mut theirs = stranger.open(Mode::Test).await;
    assert_eq!(
        error_of(theirs.query("x", query).await).code,
        ErrorCode::NotFound
    );
    match theirs.query("y", Query::ListWebhookEndpoints {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::WebhookEndpoints { endpoints, .. }),
            ..
        } => assert!(endpoints.is_empty()),
        other => panic!("{other:?}"),
    }
}

on_both_databases!(
    the_delivery_log_is_read_over_the_socket,
    deliveries_are_signed_per_the_standard,
    a_failing_receiver_gets_the_event_on_schedule,
    an_endpoint_that_never_answers_is_paused_and_owners_mailed,
    a_private_address_is_refused_again_at_delivery,
);
