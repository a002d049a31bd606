//! A stream write reads its webhook endpoints before its turn and uses that
//! read only if nothing of the stream committed in between. Two writes of
//! one merchant in one group: the first adds an endpoint, the second (which
//! read before the first was written) still queues a delivery for it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Database, TestApp, customer_input};
use paydesk::store::stream::{self, Actor, Cause, StreamKey, Work};
use paydesk::store::webhooks::{self, EndpointRow};
use paydesk::store::{Db, customers, events};
use protocol::{Change, Mode};

use crate::group_commit::{stream_seq, until_queued};

fn endpoint(key: &StreamKey) -> EndpointRow {
    EndpointRow {
        id: "whe_group".into(),
        merchant_id: key.merchant_id.clone(),
        mode: key.mode.as_str().into(),
        url: "https://hooks.example.co.za/paydesk".into(),
        description: "Accounts".into(),
        event_types: "customer.created".into(),
        enabled: 1,
        disabled_reason: None,
        secret: "sealed".into(),
        previous_secret: None,
        previous_secret_until: None,
        created_at: 1,
        updated_at: 1,
    }
}

async fn an_endpoint_added_in_the_group_gets_the_next_write(db: Database) {
    let app = TestApp::start(db).await;
    app.merchant("owner@example.co.za").await;
    let (_, merchant_id) = app.owner_ids("owner@example.co.za").await;
    let key = StreamKey::new(merchant_id, Mode::Test);
    let store = Db::connect(&app.database_url).await.unwrap();
    events::open_stream(&store, &key.merchant_id, key.mode)
        .await
        .unwrap();
    let sqlite = app.database_url.starts_with("sqlite:");
    // On SQLite both writes queue behind a held turn, so both read their
    // endpoints (none yet) before either is written, and share one group.
    let held = if sqlite {
        Some(store.begin_write().await.unwrap())
    } else {
        None
    };

    let adding = {
        let (store, key) = (store.clone(), key.clone());
        actix_web::rt::spawn(async move {
            let cause = Cause::background(Actor::Scheduler);
            stream::write(&store, &key, &cause, async |tx, _seq| {
                webhooks::insert_endpoint(tx, &endpoint(&key)).await?;
                Ok(Work::changed(Vec::new(), ()))
            })
            .await
            .map(|written| written.seq)
        })
    };
    // On PostgreSQL the endpoint is added first, outside any group.
    let adding = if sqlite {
        until_queued(&store, 1).await;
        Some(adding)
    } else {
        adding.await.unwrap().unwrap();
        None
    };
    let creating = {
        let (store, key) = (store.clone(), key.clone());
        actix_web::rt::spawn(async move {
            let cause = Cause::background(Actor::Scheduler);
            let input = customer_input("Thandi Customer", "thandi@example.co.za");
            stream::write(&store, &key, &cause, async |tx, _seq| {
                let customer = customers::insert_customer(
                    tx,
                    &key.merchant_id,
                    key.mode,
                    "cus_group",
                    &input,
                    1,
                )
                .await?;
                let changes = vec![Change::CustomerUpserted {
                    customer: Box::new(customer),
                }];
                Ok(Work::changed(changes, ()))
            })
            .await
            .map(|written| written.seq)
        })
    };
    if let (Some(held), Some(adding)) = (held, adding) {
        until_queued(&store, 2).await;
        held.rollback().await.unwrap();
        let added = adding.await.unwrap().unwrap();
        let created = creating.await.unwrap().unwrap();
        assert_eq!(created, added.map(|seq| seq + 1), "not one group in order");
    } else {
        creating.await.unwrap().unwrap();
    }
    let created_seq = stream_seq(&store, &key).await;

    let deliveries: Vec<(String, String)> = sqlx::query_as(
        "SELECT endpoint_id, event_type FROM webhook_deliveries \
         WHERE merchant_id = $1 AND mode = $2 AND event_seq = $3",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(created_seq)
    .fetch_all(&store.pool)
    .await
    .unwrap();
    assert_eq!(
        deliveries,
        vec![("whe_group".to_string(), "customer.created".to_string())]
    );
}

on_both_databases!(an_endpoint_added_in_the_group_gets_the_next_write);
