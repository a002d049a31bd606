//! The endpoint page's delivery log is live: a delivery shows in the open
//! tabs of the stream as it is queued (with the event that made it) and
//! again after each attempt, with the headers that were sent; members
//! without developer access are not sent the log.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::webhook_support;

use common::{Database, Socket, TestApp, committed_id, customer_input};
use paydesk::auth::keys::ServerKey;
use paydesk::store::Db;
use protocol::{
    Change, ClientFrame, Command, DeliveryState, Mode, Query, ReplyBody, Role, ServerFrame,
    WebhookDelivery,
};
use webhook_support::Receiver;

const OWNER: &str = "owner@example.co.za";

/// The delivery changes of the next delta that has one matching `wanted`,
/// with the other changes of that delta.
async fn next_delivery(
    socket: &mut Socket,
    wanted: impl Fn(&WebhookDelivery) -> bool,
) -> (WebhookDelivery, Vec<Change>) {
    let frame = socket
        .next_matching(|f| {
            matches!(f, ServerFrame::Delta { changes, .. } if changes.iter().any(
                |c| matches!(c, Change::WebhookDeliveryUpserted { delivery } if wanted(delivery))))
        })
        .await;
    let ServerFrame::Delta { changes, .. } = frame else {
        unreachable!()
    };
    let delivery = changes
        .iter()
        .find_map(|c| match c {
            Change::WebhookDeliveryUpserted { delivery } if wanted(delivery) => {
                Some((**delivery).clone())
            }
            _ => None,
        })
        .unwrap();
    (delivery, changes)
}

async fn operations_member(app: &TestApp) -> Socket {
    let email = "ops@example.co.za";
    let member = app.merchant(email).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let (user_id, _) = app.owner_ids(email).await;
    let db = Db::connect(&app.database_url).await.unwrap();
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query(
        "INSERT INTO memberships (merchant_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(&merchant_id)
    .bind(&user_id)
    .bind(Role::Operations.as_str())
    .bind(paydesk::ids::now_ms())
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let mut socket = member.socket().await;
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

async fn the_delivery_log_follows_each_attempt_live(db: Database) {
    let key = ServerKey::generate().unwrap();
    let app = TestApp::start_with(db, move |config| {
        config.secret_key = Some(key);
        // The receiver listens on this machine's loopback address.
        config.webhooks_allow_private_addresses = true;
    })
    .await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let mut page = owner.open(Mode::Test).await;
    let mut ops = operations_member(&app).await;
    let receiver = Receiver::start(0).await;

    let create = Command::CreateWebhookEndpoint {
        url: receiver.url.clone(),
        description: "Shop".into(),
        event_types: vec!["customer.created".into()],
    };
    let endpoint_id = match tab.command("add", create).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::WebhookSecret { endpoint_id, .. }),
            ..
        } => endpoint_id,
        other => panic!("{other:?}"),
    };
    let input = customer_input("Lerato Dlamini", "lerato@example.co.za");
    let customer_id = committed_id(tab.command("c1", Command::CreateCustomer { input }).await);

    // Queued: in the same delta as the change it tells of.
    let (queued, with) = next_delivery(&mut page, |d| d.attempts == 0).await;
    assert_eq!(queued.endpoint_id, endpoint_id);
    assert_eq!(queued.event_type, "customer.created");
    assert_eq!(queued.state, DeliveryState::Pending);
    assert!(queued.last_request_headers.is_none());
    assert!(
        with.iter().any(
            |c| matches!(c, Change::CustomerUpserted { customer } if customer.id == customer_id)
        )
    );

    // Attempted: the answer and the headers as sent.
    let (delivered, _) = next_delivery(&mut page, |d| d.attempts == 1).await;
    assert_eq!(delivered.id, queued.id);
    assert_eq!(delivered.state, DeliveryState::Delivered);
    assert_eq!(delivered.last_status, Some(204));
    assert!(delivered.last_duration_ms.is_some());
    let got = receiver.wait_for(1).await.remove(0);
    let headers = delivered.last_request_headers.clone().unwrap();
    for name in [
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
        "content-type",
    ] {
        let line = format!("{name}: {}", got.header(name));
        assert!(headers.lines().any(|l| l == line), "{line} in {headers}");
    }
    assert!(got.header("webhook-signature").starts_with("v1,"));
    assert_eq!(got.body, delivered.payload);

    // Read afresh, the log says the same.
    let log = Query::ListWebhookDeliveries {
        endpoint_id: endpoint_id.clone(),
    };
    match tab.query("log", log).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::WebhookDeliveries { deliveries }),
            ..
        } => assert_eq!(deliveries, vec![delivered.clone()]),
        other => panic!("{other:?}"),
    }

    // Resent (the receiver lost it): the same event again, on the log live.
    let resend = Command::ResendWebhookDeliveries {
        endpoint_id: endpoint_id.clone(),
        delivery_id: Some(delivered.id.clone()),
    };
    assert!(matches!(
        tab.command("resend", resend).await,
        ServerFrame::Reply { ok: Some(_), .. }
    ));
    let (again, _) = next_delivery(&mut page, |d| d.attempts == 2).await;
    assert_eq!(again.state, DeliveryState::Delivered);
    let second = receiver.wait_for(2).await.remove(1);
    assert_eq!(second.header("webhook-id"), got.header("webhook-id"));
    assert_eq!(second.body, got.body);
    // Resending all of them touches only failed ones: nothing is sent.
    let all = Command::ResendWebhookDeliveries {
        endpoint_id: endpoint_id.clone(),
        delivery_id: None,
    };
    assert!(matches!(
        tab.command("resend-all", all).await,
        ServerFrame::Reply { ok: Some(_), .. }
    ));
    let log = Query::ListWebhookDeliveries {
        endpoint_id: endpoint_id.clone(),
    };
    match tab.query("log2", log).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::WebhookDeliveries { deliveries }),
            ..
        } => assert_eq!(deliveries, vec![again]),
        other => panic!("{other:?}"),
    }

    // A member without developer access hears of the customer, not the log.
    let frame = ops
        .next_matching(|f| {
            matches!(f, ServerFrame::Delta { changes, .. }
                if changes.iter().any(|c| matches!(c, Change::CustomerUpserted { .. })))
        })
        .await;
    let ServerFrame::Delta { changes, .. } = frame else {
        unreachable!()
    };
    assert!(
        !changes
            .iter()
            .any(|c| matches!(c, Change::WebhookDeliveryUpserted { .. })),
        "{changes:?}"
    );
}

on_both_databases!(the_delivery_log_follows_each_attempt_live);
