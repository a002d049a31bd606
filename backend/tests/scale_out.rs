//! Two backend nodes sharing one PostgreSQL: a delta committed on one node
//! reaches the sockets of the same merchant on the other, in `seq` order.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Database, TestApp, customer_input};
use protocol::{Command, ServerFrame};

#[actix_web::test]
async fn deltas_cross_nodes_in_order() {
    let Some(Database::Postgres(base)) = Database::postgres() else {
        eprintln!("TEST_DATABASE_URL is not set: the two-node run is skipped");
        return;
    };
    let url = common::fresh_postgres_database(&base).await;
    let node_a = TestApp::start_at(&url).await;
    let node_b = TestApp::start_at(&url).await;
    let on_a = node_a.merchant("owner@example.co.za").await;
    let on_b = node_b.browser();
    assert_eq!(
        on_b.sign_in("owner@example.co.za", "karoo-sunset-41", "/")
            .await
            .status(),
        200
    );
    let (mut tab_a, _) = on_a.live().await;
    let (mut tab_b, _) = on_b.live().await;

    tab_a
        .command(
            "a1",
            Command::CreateCustomer {
                input: customer_input("From A", "a@example.co.za"),
            },
        )
        .await;
    assert!(
        matches!(tab_b.next().await, ServerFrame::Delta { seq: 1, .. }),
        "node B relays node A's delta"
    );
    tab_b
        .command(
            "b1",
            Command::CreateCustomer {
                input: customer_input("From B", "b@example.co.za"),
            },
        )
        .await;
    for tab in [&mut tab_a, &mut tab_b] {
        let mut seqs = Vec::new();
        while seqs.last() != Some(&2) {
            if let ServerFrame::Delta { seq, .. } = tab.next().await {
                seqs.push(seq);
            }
        }
        assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
    }
}
