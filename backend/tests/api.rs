//! The machine API over real HTTP, on both databases: a read token cannot
//! write; a revoked token fails at once (and its socket closes); fifty
//! concurrent requests with one Idempotency-Key make one payment; another
//! merchant's ids are not found; errors have one shape with the socket's
//! codes and a translated message; writes need a key; a token past its
//! rate gets 429 with Retry-After; a token opens the socket too.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support;
use crate::collection_support::{eft_mandate, once_under};
use crate::common;

use api_support::{Api, grants, make_token, shop_token};
use common::{Database, TestApp};
use futures_util::future::join_all;
use protocol::*;
use serde_json::json;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const OWNER: &str = "owner@example.co.za";

async fn start(db: Database, per_minute: u32) -> TestApp {
    TestApp::start_with(db, move |config| {
        config.business_date = Some(time::macros::date!(2026 - 03 - 02));
        config.api_requests_per_minute = per_minute;
    })
    .await
}

fn customer_json(name: &str, email: &str) -> serde_json::Value {
    serde_json::to_value(CustomerInput {
        name: name.into(),
        email: email.into(),
        cellphone: "+27821234567".into(),
        id_type: Some(IdType::SouthAfricanId),
        id_number: "8801235111088".into(),
        ..Default::default()
    })
    .unwrap()
}

fn once_off(customer_id: &str) -> serde_json::Value {
    let mut input = once_under(
        customer_id,
        MandateChoice::New {
            input: Box::new(eft_mandate("4000000012", "GYM2026")),
        },
    );
    input.transaction_reference = "INV-1001".into();
    serde_json::to_value(input).unwrap()
}

async fn a_read_token_cannot_write(db: Database) {
    let app = start(db, 600).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let reads = grants(&[(Section::Customers, Access::Read)]);
    let (_, secret) = make_token(&mut socket, "reader", Mode::Test, reads).await;
    let api = Api::new(&app, &secret);

    let listed = api.get("/customers").await;
    assert_eq!(listed.status, 200, "{}", listed.json);
    assert!(listed.json["items"].as_array().unwrap().is_empty());

    let refused = api
        .post(
            "/customers",
            "k1",
            &customer_json("Thabo Mokoena", "t@example.co.za"),
        )
        .await;
    assert_eq!(
        (refused.status, refused.code()),
        (403, "forbidden"),
        "{}",
        refused.json
    );
    assert!(
        !refused.json["error"]["message"]
            .as_str()
            .unwrap()
            .is_empty()
    );
    // Nothing of another section either.
    let payments = api.get("/payments?kind=once").await;
    assert_eq!((payments.status, payments.code()), (403, "forbidden"));
    // The message is in the language asked for; the code is the same.
    let en = api.get_in("/payments?kind=once", "en-ZA").await;
    let af = api.get_in("/payments?kind=once", "af-ZA,af;q=0.9").await;
    assert_eq!(af.code(), "forbidden");
    assert_ne!(en.json["error"]["message"], af.json["error"]["message"]);

    // A writer's token writes, and needs a key to.
    let writes = grants(&[(Section::Customers, Access::Write)]);
    let (_, secret) = make_token(&mut socket, "writer", Mode::Test, writes).await;
    let writer = Api::new(&app, &secret);
    let keyless = writer
        .post(
            "/customers",
            "",
            &customer_json("Thabo Mokoena", "t@example.co.za"),
        )
        .await;
    assert_eq!(
        (keyless.status, keyless.code()),
        (400, "idempotency_key_required")
    );
    // A key as documented: visible ASCII, without spaces.
    for odd in ["two words", "tab\tinside"] {
        let refused = writer
            .post(
                "/customers",
                odd,
                &customer_json("Thabo Mokoena", "t@example.co.za"),
            )
            .await;
        assert_eq!(
            (refused.status, refused.code()),
            (400, "invalid_input"),
            "{odd}"
        );
    }
    let body = customer_json("Thabo Mokoena", "t@example.co.za");
    let made = writer.post("/customers", "k1", &body).await;
    assert_eq!(made.status, 201, "{}", made.json);
    assert_eq!(made.json["name"], "Thabo Mokoena");
    // The same key again: the first answer's record, made once.
    let again = writer.post("/customers", "k1", &body).await;
    assert_eq!((again.status, &again.json["id"]), (201, &made.json["id"]));
    // The same key with another body is refused.
    let other = writer
        .post(
            "/customers",
            "k1",
            &customer_json("Lerato Dlamini", "l@example.co.za"),
        )
        .await;
    assert_eq!((other.status, other.code()), (409, "command_id_reused"));
    // A field the rules refuse: the field, its code and a message.
    let bad = writer
        .post("/customers", "k2", &customer_json("Thabo", "not-an-email"))
        .await;
    assert_eq!(bad.status, 422, "{}", bad.json);
    assert_eq!(bad.json["error"]["fields"][0]["field"], "email");
    let listed = api.get("/customers").await;
    assert_eq!(listed.json["items"].as_array().unwrap().len(), 1);

    // The change is the token's: one event caused by it, from its address.
    let causes = app.event_causes(OWNER, Mode::Test).await;
    let by_token: Vec<_> = causes
        .iter()
        .filter(|c| c.actor_kind == "api_token")
        .collect();
    assert_eq!(by_token.len(), 1, "{causes:?}");
    assert_eq!(by_token[0].client_address.as_deref(), Some("127.0.0.1"));
}

async fn token_socket(app: &TestApp, secret: &str) -> common::Socket {
    let url = app.url("/ws").replacen("http://", "ws://", 1);
    let mut request = url.into_client_request().unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {secret}").parse().unwrap());
    let (stream, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    common::Socket::from_stream(stream)
}

async fn a_revoked_token_fails_at_once(db: Database) {
    let app = start(db, 600).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let writes = grants(&[(Section::Customers, Access::Write)]);
    let (token, secret) = make_token(&mut socket, "shop", Mode::Test, writes).await;
    let api = Api::new(&app, &secret);
    assert_eq!(api.get("/customers").await.status, 200);

    // The token opens the socket too, on its own stream, and writes there.
    let mut live = token_socket(&app, &secret).await;
    live.send(&ClientFrame::Hello {
        resume: None,
        build: "test".into(),
        merchant_id: None,
        mode: None,
    })
    .await;
    let welcome = live
        .next_matching(|f| matches!(f, ServerFrame::Welcome { .. }))
        .await;
    let ServerFrame::Welcome { mode, .. } = welcome else {
        unreachable!()
    };
    assert_eq!(mode, Mode::Test);
    let input = serde_json::from_value(customer_json("Sipho Ndlovu", "s@example.co.za")).unwrap();
    let made = live.command("c1", Command::CreateCustomer { input }).await;
    common::committed_id(made);
    // Its own account has nothing to change.
    let refused = live.query("p", Query::GetProfile {}).await;
    assert_eq!(common::error_of(refused).code, ErrorCode::Forbidden);

    let revoke = Command::RevokeApiToken {
        token_id: token.id.clone(),
    };
    api_support::token_of(socket.command("revoke", revoke).await);
    // The very next request fails, and the token's socket is closed.
    let refused = api.get("/customers").await;
    assert_eq!((refused.status, refused.code()), (401, "unauthenticated"));
    assert_eq!(live.closed().await, Some(4003));
    // A socket cannot be opened with it any more.
    let url = app.url("/ws").replacen("http://", "ws://", 1);
    let mut request = url.into_client_request().unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {secret}").parse().unwrap());
    assert!(tokio_tungstenite::connect_async(request).await.is_err());
    // Nor does a made-up secret, or none.
    let stranger = Api::new(&app, "pdk_test_000000000000000000000000000000000000000000");
    assert_eq!(stranger.get("/customers").await.status, 401);
}

async fn fifty_concurrent_requests_with_one_key_make_one_payment(db: Database) {
    let app = start(db, 600).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let secret = shop_token(&mut socket).await;
    let api = Api::new(&app, &secret);
    let customer = api
        .post(
            "/customers",
            "c1",
            &customer_json("Thabo Mokoena", "t@example.co.za"),
        )
        .await;
    assert_eq!(customer.status, 201, "{}", customer.json);
    let body = once_off(customer.json["id"].as_str().unwrap());

    let answers = join_all((0..50).map(|_| api.post("/payments", "pay-1", &body))).await;
    let mut ids = std::collections::HashSet::new();
    for answer in &answers {
        match answer.status {
            201 => {
                ids.insert(answer.json["id"].as_str().unwrap().to_string());
            }
            409 => assert_eq!(answer.code(), "idempotency_key_in_use", "{}", answer.json),
            other => panic!("{other}: {}", answer.json),
        }
    }
    assert_eq!(ids.len(), 1, "every success names the one payment");
    let listed = api.get("/payments?kind=once").await;
    assert_eq!(listed.status, 200, "{}", listed.json);
    assert_eq!(listed.json["items"].as_array().unwrap().len(), 1);
    // The lists filter by customer, as the customer page does.
    let customer_id = customer.json["id"].as_str().unwrap();
    let theirs = api
        .get(&format!("/payments?kind=once&customerId={customer_id}"))
        .await;
    assert_eq!(theirs.json["items"].as_array().unwrap().len(), 1);
    let mandates = api
        .get(&format!("/mandates?customerId={customer_id}"))
        .await;
    assert_eq!(
        mandates.json["items"].as_array().unwrap().len(),
        1,
        "{}",
        mandates.json
    );
    let nobody = api.get("/payments?kind=once&customerId=cus_nobody").await;
    assert!(nobody.json["items"].as_array().unwrap().is_empty());
    // Afterwards the key replays the first answer.
    let replay = api.post("/payments", "pay-1", &body).await;
    assert_eq!(replay.status, 201);
    assert!(ids.contains(replay.json["id"].as_str().unwrap()));

    // Records say what they are; a payment answers its customer and
    // mandate whole when asked to.
    assert_eq!(
        (&replay.json["object"], &listed.json["object"]),
        (&json!("payment"), &json!("list"))
    );
    assert_eq!(listed.json["items"][0]["object"], "payment");
    let payment_id = replay.json["id"].as_str().unwrap();
    let plain = api.get(&format!("/payments/{payment_id}")).await;
    assert!(plain.json.get("customer").is_none(), "{}", plain.json);
    let whole = api
        .get(&format!("/payments/{payment_id}?expand=customer,mandate"))
        .await;
    assert_eq!(whole.status, 200, "{}", whole.json);
    assert_eq!(whole.json["customer"]["object"], "customer");
    assert_eq!(whole.json["customer"]["id"], customer_id);
    assert_eq!(whole.json["mandate"]["object"], "mandate");
    assert_eq!(whole.json["mandate"]["id"], whole.json["mandateId"]);
    let wrong = api
        .get(&format!("/payments/{payment_id}?expand=bank"))
        .await;
    assert_eq!(wrong.status, 422);
    assert_eq!(wrong.json["error"]["fields"][0]["field"], "expand");
}

async fn another_merchants_ids_are_not_found(db: Database) {
    let app = start(db, 600).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let writes = grants(&[(Section::Customers, Access::Write)]);
    let (_, secret) = make_token(&mut socket, "shop", Mode::Test, writes).await;
    let ours = Api::new(&app, &secret);
    let made = ours
        .post(
            "/customers",
            "c1",
            &customer_json("Thabo Mokoena", "t@example.co.za"),
        )
        .await;
    let id = made.json["id"].as_str().unwrap().to_string();
    assert_eq!(ours.get(&format!("/customers/{id}")).await.status, 200);

    let stranger = app.merchant("other@example.co.za").await;
    let mut theirs = stranger.open(Mode::Test).await;
    let (_, secret) = make_token(&mut theirs, "shop", Mode::Test, writes).await;
    let them = Api::new(&app, &secret);
    let read = them.get(&format!("/customers/{id}")).await;
    assert_eq!((read.status, read.code()), (404, "not_found"));
    let archive = them
        .post(&format!("/customers/{id}/archive"), "a1", &json!({}))
        .await;
    assert_eq!((archive.status, archive.code()), (404, "not_found"));
    // The owner's live-mode token does not see the test mode's customer.
    let mut live = owner.open(Mode::Live).await;
    let (_, secret) = make_token(&mut live, "live", Mode::Live, writes).await;
    assert!(secret.starts_with("pdk_live_"));
    let live_api = Api::new(&app, &secret);
    assert_eq!(live_api.get(&format!("/customers/{id}")).await.status, 404);
    // An unknown route is not found in the same shape.
    assert_eq!(ours.get("/nothing-here").await.code(), "not_found");
}

async fn a_token_past_its_rate_waits(db: Database) {
    let app = start(db, 2).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let reads = grants(&[(Section::Customers, Access::Read)]);
    let (_, secret) = make_token(&mut socket, "shop", Mode::Test, reads).await;
    let api = Api::new(&app, &secret);
    assert_eq!(api.get("/customers").await.status, 200);
    assert_eq!(api.get("/customers").await.status, 200);
    let limited = api.get("/customers").await;
    assert_eq!((limited.status, limited.code()), (429, "rate_limited"));
    let wait: u64 = limited.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=30).contains(&wait), "{wait}");
    // The message says the same wait as the header.
    let message = limited.json["error"]["message"].as_str().unwrap();
    assert!(message.contains(&format!("{wait} s")), "{message}");
}

async fn a_rolled_secret_works_for_its_grace_period_only(db: Database) {
    let app = start(db, 600).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let reads = grants(&[(Section::Customers, Access::Read)]);
    let (token, first) = make_token(&mut socket, "shop", Mode::Test, reads).await;
    let roll = |grace_hours| Command::RollApiToken {
        token_id: token.id.clone(),
        grace_hours,
    };
    let (_, second) = api_support::token_of(socket.command("r1", roll(24)).await);
    let second = second.unwrap();
    // During the grace period both secrets open the API.
    assert_eq!(Api::new(&app, &first).get("/customers").await.status, 200);
    assert_eq!(Api::new(&app, &second).get("/customers").await.status, 200);
    // Rolled again without grace: only the newest works, at once.
    let (_, third) = api_support::token_of(socket.command("r2", roll(0)).await);
    let third = third.unwrap();
    assert_eq!(Api::new(&app, &first).get("/customers").await.status, 401);
    assert_eq!(Api::new(&app, &second).get("/customers").await.status, 401);
    assert_eq!(Api::new(&app, &third).get("/customers").await.status, 200);
    // Used: the list says when and from where.
    let listed = match socket.query("l", Query::ListApiTokens {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::ApiTokens { tokens }),
            ..
        } => tokens,
        other => panic!("{other:?}"),
    };
    assert!(listed[0].last_used_at.is_some());
    assert_eq!(listed[0].last_used_from.as_deref(), Some("127.0.0.1"));
}

/// What a developer gets back for a request the API cannot read or a
/// token it does not know: what is wrong, in words for a server.
async fn unreadable_requests_and_unknown_tokens_say_why(db: Database) {
    let app = start(db, 600).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let writes = grants(&[(Section::Customers, Access::Write)]);
    let (_, secret) = make_token(&mut socket, "writer", Mode::Test, writes).await;
    let api = Api::new(&app, &secret);

    let broken = api
        .http
        .post(format!("{}/customers", api.base))
        .bearer_auth(&secret)
        .header("idempotency-key", "k1")
        .header("content-type", "application/json")
        .body("{\"name\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(broken.status(), 400);
    let broken: serde_json::Value = broken.json().await.unwrap();
    assert_eq!(broken["error"]["code"], "invalid_input");
    assert!(
        broken["error"]["detail"]
            .as_str()
            .unwrap()
            .contains("line 1"),
        "{broken}"
    );
    assert!(
        !broken["error"]["message"]
            .as_str()
            .unwrap()
            .contains("fields")
    );

    let missing = api
        .post("/customers", "k2", &json!({"name": "Thabo"}))
        .await;
    assert_eq!((missing.status, missing.code()), (400, "invalid_input"));
    assert!(
        missing.json["error"]["detail"]
            .as_str()
            .unwrap()
            .contains("missing field"),
        "{}",
        missing.json
    );

    // The integrations page's quick start: a name and an e-mail address
    // make a customer; the rest may be left out.
    let quick = api
        .post(
            "/customers",
            "k4",
            &json!({"name": "Thandi Nkosi", "email": "thandi@example.co.za"}),
        )
        .await;
    assert_eq!(quick.status, 201, "{}", quick.json);
    assert_eq!(quick.json["cellphone"], "");
    // The same key for another body, and a key past its length: each says
    // what is wrong with the key, in words for a server.
    let reused = api
        .post(
            "/customers",
            "k4",
            &json!({"name": "Lerato Dlamini", "email": "lerato@example.co.za"}),
        )
        .await;
    assert_eq!((reused.status, reused.code()), (409, "command_id_reused"));
    let message = reused.json["error"]["message"].as_str().unwrap();
    assert!(message.contains("Idempotency-Key"), "{message}");
    let long_key = "k".repeat(80);
    let long = api
        .post(
            "/customers",
            &long_key,
            &json!({"name": "X", "email": "x@example.co.za"}),
        )
        .await;
    assert_eq!((long.status, long.code()), (400, "invalid_input"));
    let detail = long.json["error"]["detail"].as_str().unwrap();
    assert!(detail.contains("Idempotency-Key"), "{detail}");

    // A request the API read, refused by the rules: fields, no detail.
    let mut bad = customer_json("Thabo Mokoena", "not-an-address");
    bad["email"] = json!("not-an-address");
    let refused = api.post("/customers", "k3", &bad).await;
    assert_eq!(refused.status, 422, "{}", refused.json);
    assert_eq!(refused.json["error"]["fields"][0]["field"], "email");
    assert!(refused.json["error"]["detail"].is_null());

    let unknown = Api::new(&app, "pd_test_not-a-real-token")
        .get("/customers")
        .await;
    assert_eq!((unknown.status, unknown.code()), (401, "unauthenticated"));
    let message = unknown.json["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("API token") && !message.contains("sign in"),
        "{message}"
    );
}

on_both_databases!(
    unreadable_requests_and_unknown_tokens_say_why,
    a_rolled_secret_works_for_its_grace_period_only,
    a_read_token_cannot_write,
    a_revoked_token_fails_at_once,
    fifty_concurrent_requests_with_one_key_make_one_payment,
    another_merchants_ids_are_not_found,
    a_token_past_its_rate_waits,
);
