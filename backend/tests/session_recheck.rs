//! The sessions behind a node's sockets are re-checked together, one query
//! per interval for the whole node: a session ended elsewhere (signed out on
//! another node, expired, revoked) closes its sockets here with 4001, and
//! every other socket stays open.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Database, TestApp, customer_input};
use protocol::*;

async fn an_ended_session_closes_its_sockets_and_no_other(db: Database) {
    // The shortest interval, so the test waits for the close, not for a timer.
    let app = TestApp::start_with(db, |config| config.session_recheck_seconds = 1).await;
    let signed_out = app.merchant("owner@example.co.za").await;
    let staying = app.merchant("other@example.co.za").await;
    let (mut tab1, _) = signed_out.live().await;
    let (mut tab2, _) = signed_out.live().await;
    let (mut other, _) = staying.live().await;

    // The session row goes away as a sign-out on another node removes it:
    // nothing on this node is told.
    let (user_id, _) = app.owner_ids("owner@example.co.za").await;
    let store = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let mut tx = store.begin_write().await.unwrap();
    sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(&user_id)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    assert_eq!(tab1.closed().await, Some(4001));
    assert_eq!(tab2.closed().await, Some(4001));
    let reply = other
        .command(
            "still-here",
            Command::CreateCustomer {
                input: customer_input("Sipho Dlamini", "sipho@example.co.za"),
            },
        )
        .await;
    assert!(
        matches!(
            reply,
            ServerFrame::Reply {
                ok: Some(ReplyBody::Committed { .. }),
                ..
            }
        ),
        "{reply:?}"
    );
}

on_both_databases!(an_ended_session_closes_its_sockets_and_no_other);
