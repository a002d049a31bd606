//! The webhook commands of the developers' screens, over the real socket:
//! adding an endpoint shows its secret once (the reply kept for retries
//! has none), pausing stops deliveries, a roll signs with both secrets, a
//! failed delivery is sent again, a test event reaches that endpoint only;
//! members without developer access are refused and another merchant's
//! endpoint is not found.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::webhook_support;

use common::{Browser, Database, Socket, TestApp, committed_id, customer_input, error_of};
use paydesk::auth::keys::ServerKey;
use paydesk::store::Db;
use protocol::{ClientFrame, Command, ErrorCode, Mode, Query, ReplyBody, Role, ServerFrame};
use webhook_support::Receiver;

const OWNER: &str = "owner@example.co.za";

async fn start(db: Database) -> TestApp {
    let key = ServerKey::generate().unwrap();
    TestApp::start_with(db, move |config| {
        config.secret_key = Some(key);
        // The receiver listens on this machine's loopback address.
        config.webhooks_allow_private_addresses = true;
    })
    .await
}

async fn count(db: &Db, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

/// The endpoint id and the secret of a `WebhookSecret` reply.
fn secret_of(frame: ServerFrame) -> (String, Option<String>) {
    match frame {
        ServerFrame::Reply {
            ok:
                Some(ReplyBody::WebhookSecret {
                    endpoint_id,
                    secret,
                    ..
                }),
            ..
        } => (endpoint_id, secret),
        other => panic!("expected a secret, got {other:?}"),
    }
}

/// The reply stored for retries of command `command_id`.
async fn stored_reply(db: &Db, command_id: &str) -> (Vec<u8>, ReplyBody) {
    let bytes: Vec<u8> =
        sqlx::query_scalar("SELECT reply FROM command_results WHERE command_id = $1")
            .bind(command_id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    let reply = protocol::decode(&bytes).unwrap();
    (bytes, reply)
}

fn create(url: &str, types: &[&str]) -> Command {
    Command::CreateWebhookEndpoint {
        url: url.into(),
        description: "Shop".into(),
        event_types: types.iter().map(|t| t.to_string()).collect(),
    }
}

fn update(endpoint_id: &str, enabled: bool) -> Command {
    Command::UpdateWebhookEndpoint {
        endpoint_id: endpoint_id.into(),
        description: "Shop".into(),
        event_types: vec!["customer.created".into()],
        enabled,
    }
}

async fn create_customer(socket: &mut Socket, n: usize) -> String {
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

fn assert_committed(frame: ServerFrame) {
    assert!(
        matches!(
            frame,
            ServerFrame::Reply {
                ok: Some(ReplyBody::WebhookSecret { secret: None, .. }),
                ..
            }
        ),
        "{frame:?}"
    );
}

async fn endpoints_are_managed_over_the_socket(db: Database) {
    let app = start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let store = Db::connect(&app.database_url).await.unwrap();
    let receiver = Receiver::start(0).await;

    // Added: the secret is in the reply, once.
    let (endpoint_id, secret) = secret_of(
        socket
            .command("add", create(&receiver.url, &["customer.created"]))
            .await,
    );
    let secret = secret.expect("the new endpoint's secret");
    assert!(secret.starts_with("whsec_"));
    let (bytes, kept) = stored_reply(&store, "add").await;
    assert!(
        matches!(&kept, ReplyBody::WebhookSecret { secret: None, endpoint_id: id, .. } if *id == endpoint_id),
        "{kept:?}"
    );
    let key_part = secret.trim_start_matches("whsec_");
    assert!(!String::from_utf8_lossy(&bytes).contains(key_part));
    // A retry answers from the stored reply: the same endpoint, no secret.
    let (again, none) = secret_of(
        socket
            .command("add", create(&receiver.url, &["customer.created"]))
            .await,
    );
    assert_eq!((again, none), (endpoint_id.clone(), None));
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM webhook_endpoints").await,
        1
    );

    // A test event reaches the endpoint, whatever it subscribes to.
    let test = Command::SendTestWebhookEvent {
        endpoint_id: endpoint_id.clone(),
    };
    assert_committed(socket.command("test", test).await);
    let first = receiver.wait_for(1).await.remove(0);
    let body: serde_json::Value = serde_json::from_str(&first.body).unwrap();
    assert_eq!(body["type"], "webhook.test");
    assert_eq!(body["data"]["endpointId"], endpoint_id.as_str());

    create_customer(&mut socket, 1).await;
    receiver.wait_for(2).await;

    // Paused: a change queues nothing for it.
    assert_committed(socket.command("pause", update(&endpoint_id, false)).await);
    let before = count(&store, "SELECT COUNT(*) FROM webhook_deliveries").await;
    create_customer(&mut socket, 2).await;
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM webhook_deliveries").await,
        before
    );
    match socket.query("list", Query::ListWebhookEndpoints {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::WebhookEndpoints { endpoints, .. }),
            ..
        } => assert!(!endpoints[0].enabled),
        other => panic!("{other:?}"),
    }
    assert_committed(socket.command("enable", update(&endpoint_id, true)).await);

    // Rolled: a new secret, once; deliveries carry both signatures.
    let roll = Command::RollWebhookSecret {
        endpoint_id: endpoint_id.clone(),
    };
    let (_, rolled) = secret_of(socket.command("roll", roll).await);
    let rolled = rolled.expect("the new secret");
    assert!(rolled.starts_with("whsec_") && rolled != secret);
    let (bytes, _) = stored_reply(&store, "roll").await;
    assert!(!String::from_utf8_lossy(&bytes).contains(rolled.trim_start_matches("whsec_")));
    create_customer(&mut socket, 3).await;
    let third = receiver.wait_for(3).await.remove(2);
    assert_eq!(third.header("webhook-signature").split(' ').count(), 2);

    // A delivery that failed for good is sent again on request.
    let mut tx = store.begin_write().await.unwrap();
    sqlx::query("UPDATE webhook_deliveries SET state = 'failed' WHERE event_type = 'webhook.test'")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let resend = Command::ResendWebhookDeliveries {
        endpoint_id: endpoint_id.clone(),
        delivery_id: None,
    };
    assert_committed(socket.command("resend", resend).await);
    let again = receiver.wait_for(4).await.remove(3);
    assert_eq!(again.body, first.body);

    // Another merchant's endpoint is not found, whatever the command.
    let stranger = app.merchant("other@example.co.za").await;
    let mut theirs = stranger.open(Mode::Test).await;
    for (n, command) in [
        update(&endpoint_id, false),
        Command::RollWebhookSecret {
            endpoint_id: endpoint_id.clone(),
        },
        Command::SendTestWebhookEvent {
            endpoint_id: endpoint_id.clone(),
        },
        Command::ResendWebhookDeliveries {
            endpoint_id: endpoint_id.clone(),
            delivery_id: None,
        },
        Command::DeleteWebhookEndpoint {
            endpoint_id: endpoint_id.clone(),
        },
    ]
    .into_iter()
    .enumerate()
    {
        let refused = theirs.command(&format!("x{n}"), command).await;
        assert_eq!(error_of(refused).code, ErrorCode::NotFound);
    }
    // The owner's live mode does not see the test mode's endpoint either.
    let mut live = owner.open(Mode::Live).await;
    let roll = Command::RollWebhookSecret {
        endpoint_id: endpoint_id.clone(),
    };
    assert_eq!(
        error_of(live.command("live-roll", roll).await).code,
        ErrorCode::NotFound
    );

    // Deleted: gone with its log.
    let delete = Command::DeleteWebhookEndpoint {
        endpoint_id: endpoint_id.clone(),
    };
    assert_committed(socket.command("delete", delete).await);
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM webhook_endpoints").await,
        0
    );
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM webhook_deliveries").await,
        0
    );
}

async fn add_member(app: &TestApp, email: &str, role: Role) {
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let (user_id, _) = app.owner_ids(email).await;
    let db = Db::connect(&app.database_url).await.unwrap();
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query(
        "INSERT INTO memberships (merchant_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(&merchant_id)
    .bind(&user_id)
    .bind(role.as_str())
    .bind(paydesk::ids::now_ms())
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

async fn on_owners_merchant(app: &TestApp, browser: &Browser) -> Socket {
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let mut socket = browser.socket().await;
    socket
        .send(&ClientFrame::Hello {
            resume: None,
            build: "test".into(),
            merchant_id: Some(merchant_id),
            mode: Some(Mode::Test),
        })
        .await;
    socket
        .next_matching(|f| matches!(f, ServerFrame::Welcome { .. }))
        .await;
    socket
}

async fn members_without_developer_access_are_refused(db: Database) {
    let app = start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let receiver = Receiver::start(0).await;
    let (endpoint_id, _) = secret_of(
        socket
            .command("add", create(&receiver.url, &["customer.created"]))
            .await,
    );
    let store = Db::connect(&app.database_url).await.unwrap();
    for (email, role) in [
        ("viewer@example.co.za", Role::Viewer),
        ("ops@example.co.za", Role::Operations),
    ] {
        let member = app.merchant(email).await;
        add_member(&app, email, role).await;
        let mut theirs = on_owners_merchant(&app, &member).await;
        let refused = theirs
            .command("add", create(&receiver.url, &["customer.created"]))
            .await;
        assert_eq!(error_of(refused).code, ErrorCode::Forbidden, "{email}");
        let roll = Command::RollWebhookSecret {
            endpoint_id: endpoint_id.clone(),
        };
        assert_eq!(
            error_of(theirs.command("roll", roll).await).code,
            ErrorCode::Forbidden,
            "{email}"
        );
    }
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM webhook_endpoints").await,
        1
    );
}

fn field_codes(frame: ServerFrame) -> Vec<(String, ErrorCode)> {
    error_of(frame)
        .fields
        .into_iter()
        .map(|f| (f.field, f.code))
        .collect()
}

async fn a_private_address_is_refused_when_added(db: Database) {
    let app = TestApp::start_with(db, |config| {
        config.secret_key = Some(ServerKey::generate().unwrap());
    })
    .await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    for (n, url) in ["http://127.0.0.1:9000/hooks", "http://169.254.169.254/"]
        .into_iter()
        .enumerate()
    {
        let refused = socket
            .command(&format!("a{n}"), create(url, &["customer.created"]))
            .await;
        assert_eq!(
            field_codes(refused),
            vec![("url".to_string(), ErrorCode::WebhookAddressForbidden)],
            "{url}"
        );
    }
    let unknown = socket
        .command("b", create("https://1.1.1.1/hooks", &["payment.exploded"]))
        .await;
    assert_eq!(
        field_codes(unknown),
        vec![("eventTypes".to_string(), ErrorCode::UnknownEventType)]
    );
}

on_both_databases!(
    endpoints_are_managed_over_the_socket,
    members_without_developer_access_are_refused,
    a_private_address_is_refused_when_added,
);
