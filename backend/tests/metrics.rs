//! `/metrics`: Prometheus's text format behind the configured bearer token,
//! with what the node does (commands by kind and outcome, their latency,
//! deltas, transactions, scheduler rounds) and what it holds open (sockets,
//! pool connections, the mail and import queues). Without a token the path
//! answers as any unknown path. The recorder is the process's, shared by the
//! nodes of this test binary, so counts are checked as at least, not exact.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod api_support;
mod common;
mod webhook_support;

use std::time::Duration;

use backend::metrics::MetricsToken;
use common::{Database, TestApp, customer_input};
use paydesk::auth::keys::ServerKey;
use protocol::*;
use webhook_support::{Receiver, add_endpoint, keys_of};

const TOKEN: &str = "scrape-0123456789abcdef";

async fn scrape(app: &TestApp, token: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(app.url("/metrics"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

/// The value of the first sample of `name` whose labels include every one of
/// `labels` (`key="value"`), if any.
fn sample(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter(|line| {
            line.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('{') || rest.starts_with(' '))
        })
        .find(|line| labels.iter().all(|label| line.contains(label)))
        .and_then(|line| line.rsplit(' ').next())
        .and_then(|value| value.parse().ok())
}

async fn metrics_count_what_the_node_does(db: Database) {
    let app = TestApp::start_with(db, |config| {
        config.metrics_token = Some(MetricsToken::parse(TOKEN).unwrap());
        config.scheduler_interval_seconds = 1;
    })
    .await;

    assert_eq!(scrape(&app, None).await.status().as_u16(), 401);
    let wrong = scrape(&app, Some("scrape-0123456789abcdeX")).await;
    assert_eq!(wrong.status().as_u16(), 401);
    assert_eq!(
        wrong.headers().get("www-authenticate").unwrap(),
        "Bearer realm=\"metrics\""
    );

    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;
    let input = customer_input("Pieter van der Merwe", "pieter@example.co.za");
    let reply = tab.command("c1", Command::CreateCustomer { input }).await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: Some(_), .. }),
        "{reply:?}"
    );
    let bad = customer_input("", "not-an-address");
    let reply = tab
        .command("c2", Command::CreateCustomer { input: bad })
        .await;
    assert!(
        matches!(reply, ServerFrame::Reply { error: Some(_), .. }),
        "{reply:?}"
    );

    // Scheduler rounds run every second here; wait for one to be recorded.
    let mut text = String::new();
    for _ in 0..100 {
        let response = scrape(&app, Some(TOKEN)).await;
        assert_eq!(response.status().as_u16(), 200);
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/plain; version=0.0.4")
        );
        text = response.text().await.unwrap();
        if sample(&text, "paydesk_scheduler_last_round_timestamp_seconds", &[]).is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let ok = &["kind=\"CreateCustomer\"", "outcome=\"ok\""];
    assert!(
        sample(&text, "paydesk_commands_total", ok).unwrap() >= 1.0,
        "{text}"
    );
    let refused = &["kind=\"CreateCustomer\"", "outcome=\"invalid_input\""];
    assert!(sample(&text, "paydesk_commands_total", refused).unwrap() >= 1.0);
    let latency = &["kind=\"CreateCustomer\""];
    assert!(sample(&text, "paydesk_command_duration_seconds_count", latency).unwrap() >= 2.0);
    assert!(
        sample(
            &text,
            "paydesk_command_duration_seconds_bucket",
            &["le=\"+Inf\""]
        )
        .is_some()
    );
    assert!(sample(&text, "paydesk_deltas_sent_total", &[]).unwrap() >= 1.0);
    let commits = &["outcome=\"commit\""];
    assert!(sample(&text, "paydesk_db_transaction_seconds_count", commits).unwrap() >= 1.0);
    if app.database_url.starts_with("sqlite:") {
        // Stream writes on SQLite are committed in groups.
        let groups = sample(&text, "paydesk_db_group_size_count", &[]);
        assert!(groups.unwrap() >= 1.0, "{text}");
        assert!(sample(&text, "paydesk_db_group_size_bucket", &["le=\"64\""]).is_some());
    }
    assert!(sample(&text, "paydesk_sockets_open", &[]).is_some());
    let pool = &["pool=\"read\"", "state=\"idle\""];
    assert!(sample(&text, "paydesk_db_pool_connections", pool).is_some());
    assert!(sample(&text, "paydesk_mail_queue_depth", &[]).is_some());
    assert!(sample(&text, "paydesk_import_queue_depth", &[]).is_some());
    assert!(sample(&text, "paydesk_webhook_queue_depth", &[]).is_some());
    assert!(sample(&text, "paydesk_scheduler_last_round_timestamp_seconds", &[]).unwrap() > 0.0);
    assert!(sample(&text, "paydesk_scheduler_round_seconds_count", &[]).unwrap() >= 1.0);
    // Counts and kinds only: nothing a merchant typed, nor the token.
    for secret in [TOKEN, "pieter", "owner@example.co.za", "Karoo"] {
        assert!(!text.contains(secret), "{secret} in the metrics");
    }
}

/// A delivery whose receiver keeps failing waits for its next attempt, and
/// the webhook queue's depth counts it.
async fn the_webhook_queue_depth_counts_waiting_deliveries(db: Database) {
    let key = ServerKey::generate().unwrap();
    let server_key = key.clone();
    let app = TestApp::start_with(db, move |config| {
        config.metrics_token = Some(MetricsToken::parse(TOKEN).unwrap());
        config.secret_key = Some(server_key);
        config.webhooks_allow_private_addresses = true;
    })
    .await;
    let owner = app.merchant("owner@example.co.za").await;
    let (user_id, merchant_id) = app.owner_ids("owner@example.co.za").await;
    // The test stream's first row is made when a tab first opens it.
    let mut tab = owner.open(Mode::Test).await;
    let receiver = Receiver::start(usize::MAX).await;
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
    let input = customer_input("Pieter van der Merwe", "pieter@example.co.za");
    let reply = tab.command("c1", Command::CreateCustomer { input }).await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: Some(_), .. }),
        "{reply:?}"
    );

    // The receiver was tried and refused it: the delivery waits for its
    // next attempt. Scraped until seen: the gauge is the process's, and the
    // other tests' nodes in this binary set it from their own databases.
    receiver.wait_for(1).await;
    let mut depth = None;
    for _ in 0..100 {
        let text = scrape(&app, Some(TOKEN)).await.text().await.unwrap();
        depth = sample(&text, "paydesk_webhook_queue_depth", &[]);
        if depth.is_some_and(|d| d >= 1.0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(depth, Some(1.0));
}

/// Unconfigured, `/metrics` is answered as any path the app does not know.
async fn without_a_token_metrics_are_not_served(db: Database) {
    let app = TestApp::start(db).await;
    let metrics = scrape(&app, Some(TOKEN)).await;
    let unknown = reqwest::get(app.url("/no-such-page")).await.unwrap();
    assert_eq!(metrics.status(), unknown.status());
    assert_eq!(metrics.status().as_u16(), 404);
}

/// A burst of sign-ins hashes at most one password per core at once (each
/// hash holds 19 MiB), and every one of them still gets in, in turn.
async fn a_burst_of_sign_ins_hashes_one_per_core_at_once(db: Database) {
    let app = TestApp::start_with(db, |config| {
        config.metrics_token = Some(MetricsToken::parse(TOKEN).unwrap());
    })
    .await;
    app.merchant("owner@example.co.za").await;
    let capacity = std::thread::available_parallelism().unwrap().get();
    let browsers: Vec<_> = (0..capacity * 6).map(|_| app.browser()).collect();
    let sign_ins = browsers
        .iter()
        .map(|b| b.sign_in("owner@example.co.za", "karoo-sunset-41", "/home"));
    for response in futures_util::future::join_all(sign_ins).await {
        assert_eq!(response.status().as_u16(), 200);
    }
    let text = scrape(&app, Some(TOKEN)).await.text().await.unwrap();
    let reported = sample(&text, "paydesk_password_hashing_capacity", &[]).unwrap();
    assert_eq!(reported, capacity as f64);
    let peak = sample(&text, "paydesk_password_hashes_peak", &[]).unwrap();
    assert!(
        peak >= 1.0 && peak <= capacity as f64,
        "{peak} hashes at once"
    );
}

/// API traffic by route template, method and status, with latency, and
/// the token refusals by reason; every family served has its `# HELP`
/// line and is listed in the README; the prune counters are there from the
/// start.
async fn api_requests_and_every_family_are_described(db: Database) {
    let app = TestApp::start_with(db, |config| {
        config.metrics_token = Some(MetricsToken::parse(TOKEN).unwrap());
    })
    .await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut socket = owner.open(Mode::Test).await;
    let reads = api_support::grants(&[(Section::Customers, Access::Read)]);
    let (_, secret) = api_support::make_token(&mut socket, "reader", Mode::Test, reads).await;
    let api = api_support::Api::new(&app, &secret);
    assert_eq!(api.get("/customers").await.status, 200);
    assert_eq!(api.get("/customers").await.status, 200);
    assert_eq!(api.get("/customers/cus_nothing").await.status, 404);
    assert_eq!(api.get("/nothing-here").await.status, 404);
    let stranger = api_support::Api::new(&app, "pdk_test_not-a-real-token");
    assert_eq!(stranger.get("/customers").await.status, 401);

    let text = scrape(&app, Some(TOKEN)).await.text().await.unwrap();
    let listed = ["route=\"/customers\"", "method=\"GET\"", "status=\"200\""];
    assert!(
        sample(&text, "paydesk_api_requests_total", &listed).unwrap() >= 2.0,
        "{text}"
    );
    let one = ["route=\"/customers/{customerId}\"", "status=\"404\""];
    assert!(sample(&text, "paydesk_api_requests_total", &one).unwrap() >= 1.0);
    let unmatched = ["route=\"unmatched\"", "status=\"404\""];
    assert!(sample(&text, "paydesk_api_requests_total", &unmatched).unwrap() >= 1.0);
    let refused = ["route=\"/customers\"", "status=\"401\""];
    assert!(sample(&text, "paydesk_api_requests_total", &refused).unwrap() >= 1.0);
    let timed = ["route=\"/customers\"", "method=\"GET\""];
    assert!(sample(&text, "paydesk_api_request_duration_seconds_count", &timed).unwrap() >= 3.0);
    let unknown = ["reason=\"unknown\""];
    assert!(sample(&text, "paydesk_api_refusals_total", &unknown).unwrap() >= 1.0);
    assert!(!text.contains("cus_nothing") && !text.contains(&secret));
    // Registered at start, before any prune ran.
    assert!(
        sample(&text, "paydesk_pruned_events_total", &[]).is_some(),
        "{text}"
    );
    assert!(sample(&text, "paydesk_pruned_replies_total", &[]).is_some());

    let readme = std::fs::read_to_string(common::repo_root().join("README.md")).unwrap();
    let families: std::collections::BTreeSet<&str> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| line.split(['{', ' ']).next().unwrap())
        .map(|name| {
            ["_bucket", "_sum", "_count"]
                .iter()
                .find_map(|end| name.strip_suffix(end))
                .filter(|family| {
                    text.contains(&format!("# TYPE {family} histogram"))
                        || text.contains(&format!("# TYPE {family} summary"))
                })
                .unwrap_or(name)
        })
        .collect();
    assert!(families.len() >= 15, "{families:?}");
    for family in families {
        assert!(
            text.contains(&format!("# HELP {family} ")),
            "no # HELP for {family}"
        );
        assert!(
            readme.contains(&format!("`{family}")),
            "README.md does not list {family}"
        );
    }
}

on_both_databases!(
    api_requests_and_every_family_are_described,
    metrics_count_what_the_node_does,
    the_webhook_queue_depth_counts_waiting_deliveries,
    without_a_token_metrics_are_not_served,
    a_burst_of_sign_ins_hashes_one_per_core_at_once,
);

#[test]
fn a_short_token_is_refused_by_name() {
    let err = MetricsToken::parse("short").unwrap_err();
    assert!(err.starts_with("METRICS_TOKEN:"), "{err}");
    assert_eq!(
        format!("{:?}", MetricsToken::parse(TOKEN).unwrap()),
        "MetricsToken([redacted])"
    );
}
