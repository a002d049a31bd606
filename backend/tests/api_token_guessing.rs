//! Guessing API tokens is throttled per client address, through the real
//! server: past the limit of failed tokens, an address's unchecked tokens
//! are answered 429 with `Retry-After` (and a message saying the same
//! wait), on `/api/v1` and `/ws`, with a security log line; a token that
//! works from that address carries on unslowed, and other addresses are
//! untouched. A token refused for its allow-list says so.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support::{Api, grants};
use crate::common::{Database, TestApp, logs};
use protocol::*;

const OWNER: &str = "owner@example.co.za";
const GUESSER: [u8; 4] = [127, 0, 0, 9];

fn guess(n: usize) -> String {
    format!("pdk_test_{n:0>43}")
}

fn made(frame: ServerFrame) -> String {
    crate::api_support::token_of(frame)
        .1
        .expect("a new token's secret")
}

async fn guessed_tokens_are_throttled_per_address(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start_with(db, |config| config.api_token_failures_per_minute = 5).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let reads = grants(&[(Section::Customers, Access::Read)]);
    let create = |name: &str, allowed: Vec<String>| Command::CreateApiToken {
        name: name.into(),
        mode: Mode::Test,
        permissions: reads,
        expires_at: None,
        allowed_addresses: allowed,
    };
    let in_use = made(socket.command("t1", create("in use", Vec::new())).await);
    let unused = made(socket.command("t2", create("unused", Vec::new())).await);
    // The merchant's server uses its token from the guesser's address.
    assert_eq!(
        Api::from_address(&app, &in_use, GUESSER)
            .get("/customers")
            .await
            .status,
        200
    );

    for n in 0..5 {
        let refused = Api::from_address(&app, &guess(n), GUESSER)
            .get("/customers")
            .await;
        assert_eq!(
            (refused.status, refused.code()),
            (401, "unauthenticated"),
            "guess {n}"
        );
    }
    let throttled = Api::from_address(&app, &guess(5), GUESSER)
        .get("/customers")
        .await;
    assert_eq!((throttled.status, throttled.code()), (429, "rate_limited"));
    let wait: u64 = throttled.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=12).contains(&wait), "{wait}");
    let message = throttled.json["error"]["message"].as_str().unwrap();
    assert!(message.contains(&format!("{wait} s")), "{message}");
    let line = logs
        .line_with(&["security", "127.0.0.9", "throttled"])
        .await;
    assert!(line.contains("WARN"), "{line}");
    assert!(
        !logs.text().contains(&guess(5)),
        "a presented secret reached the log"
    );

    // The socket is throttled for that address too.
    let ws = reqwest::Client::builder()
        .local_address(std::net::IpAddr::from(GUESSER))
        .build()
        .unwrap()
        .get(app.url("/ws"))
        .bearer_auth(guess(6))
        .header("connection", "upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
        .send()
        .await
        .unwrap();
    assert_eq!(ws.status(), 429);
    assert!(ws.headers().contains_key("retry-after"));

    // The token in use from there is not slowed, request after request.
    let server = Api::from_address(&app, &in_use, GUESSER);
    for _ in 0..20 {
        assert_eq!(server.get("/customers").await.status, 200);
    }
    // A token never seen working from there waits out the throttle there,
    // and works at once from anywhere else; other addresses are untouched.
    assert_eq!(
        Api::from_address(&app, &unused, GUESSER)
            .get("/customers")
            .await
            .status,
        429
    );
    assert_eq!(
        Api::from_address(&app, &unused, [127, 0, 0, 10])
            .get("/customers")
            .await
            .status,
        200
    );
    let elsewhere = Api::from_address(&app, &guess(7), [127, 0, 0, 11])
        .get("/customers")
        .await;
    assert_eq!(elsewhere.status, 401);

    // A token refused for its allow-list says so; an unknown one does not.
    let fenced = made(
        socket
            .command("t3", create("fenced", vec!["127.0.0.12".into()]))
            .await,
    );
    let wrong_place = Api::from_address(&app, &fenced, [127, 0, 0, 13])
        .get("/customers")
        .await;
    assert_eq!(
        (wrong_place.status, wrong_place.code()),
        (401, "unauthenticated")
    );
    let message = wrong_place.json["error"]["message"].as_str().unwrap();
    assert!(message.contains("allow-list"), "{message}");
    assert!(
        wrong_place.headers["www-authenticate"]
            .to_str()
            .unwrap()
            .contains("invalid_token"),
    );
    assert_eq!(
        Api::from_address(&app, &fenced, [127, 0, 0, 12])
            .get("/customers")
            .await
            .status,
        200
    );
    let unknown = elsewhere.json["error"]["message"].as_str().unwrap();
    assert!(!unknown.contains("allow-list"), "{unknown}");
}

on_both_databases!(guessed_tokens_are_throttled_per_address);

/// Two nodes on one PostgreSQL database, as behind a load balancer: an
/// address guessing through both meets one limit, not one per node. The
/// node that sees the shared count reach the limit throttles at once; the
/// other does on the address's next failure there.
#[actix_web::test]
async fn guessing_through_two_nodes_meets_one_limit() {
    let Some(Database::Postgres(base)) = Database::postgres() else {
        eprintln!("TEST_DATABASE_URL is not set: the two-node run is skipped");
        return;
    };
    let url = crate::common::fresh_postgres_database(&base).await;
    let limit = 6;
    let node_a = TestApp::start_at_with(&url, |c| c.api_token_failures_per_minute = limit).await;
    let node_b = TestApp::start_at_with(&url, |c| c.api_token_failures_per_minute = limit).await;
    // Half the limit on each node: each node alone is still under it.
    for n in 0..limit / 2 {
        for (node, name) in [(&node_a, "A"), (&node_b, "B")] {
            let refused = Api::from_address(node, &guess(n as usize), GUESSER)
                .get("/customers")
                .await;
            assert_eq!(refused.status, 401, "guess {n} on node {name}");
        }
    }
    // Node B saw the shared count reach the limit: it throttles now.
    let on_b = Api::from_address(&node_b, &guess(100), GUESSER)
        .get("/customers")
        .await;
    assert_eq!((on_b.status, on_b.code()), (429, "rate_limited"));
    // Node A counts one more failure, sees the shared count past the limit,
    // and throttles from then on.
    let last = Api::from_address(&node_a, &guess(101), GUESSER)
        .get("/customers")
        .await;
    assert_eq!(last.status, 401);
    let on_a = Api::from_address(&node_a, &guess(102), GUESSER)
        .get("/customers")
        .await;
    assert_eq!((on_a.status, on_a.code()), (429, "rate_limited"));
    // Another address is untouched on either node.
    for node in [&node_a, &node_b] {
        let elsewhere = Api::from_address(node, &guess(103), [127, 0, 0, 20])
            .get("/customers")
            .await;
        assert_eq!(elsewhere.status, 401);
    }
}
