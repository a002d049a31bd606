//! A node killed with SIGKILL while payouts are being submitted: after a
//! restart every payout is either still pending with no instruction at the
//! bank, or submitted with exactly one; none is debited twice, and the
//! scheduler then submits the pending ones exactly once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::payout_support;

use std::sync::Arc;

use common::server_process::ServerProcess;
use common::{Database, advance_clock};
use futures_util::SinkExt;
use paydesk::store::Db;
use payout_support::*;
use protocol::*;
use tokio_tungstenite::tungstenite::Message;

const PAYOUTS: usize = 20;

/// (payout id, status, instructions at the bank, payout entries in the ledger)
async fn payout_rows(db: &Db) -> Vec<(String, String, i64, i64)> {
    sqlx::query_as(
        "SELECT p.id, p.status, \
         (SELECT COUNT(*) FROM payout_submissions s WHERE s.payout_id = p.id), \
         (SELECT COUNT(*) FROM ledger_entries e WHERE e.source_id = p.id AND e.kind = 'payout') \
         FROM payouts p ORDER BY p.created_at",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap()
}

fn assert_exactly_once(rows: &[(String, String, i64, i64)]) {
    for (id, status, submissions, debits) in rows {
        assert_eq!(*debits, 1, "{id} debited {debits} times");
        let wanted = i64::from(status != "pending");
        assert_eq!(
            *submissions, wanted,
            "{id} is {status} with {submissions} instructions"
        );
    }
}

async fn a_kill_while_submitting_leaves_each_payout_pending_or_submitted_once(db: Database) {
    let dir = tempfile::tempdir().unwrap();
    let url = match db {
        Database::Sqlite => format!("sqlite://{}", dir.path().join("test.db").display()),
        Database::Postgres(base) => common::fresh_postgres_database(&base).await,
    };
    let key = paydesk::auth::keys::ServerKey::generate().unwrap().to_hex();
    let env = [
        ("SECRET_KEY", key.as_str()),
        ("BUSINESS_DATE", "2026-03-02"),
    ];
    let mut server = ServerProcess::start(dir.path(), &url, 1, &env).await;
    let jar = Arc::new(reqwest::cookie::Jar::default());
    let owner = server.browser(&jar);
    let signed_up = owner
        .sign_up("Thandi Nkosi", "owner@karoo.test", PASSWORD, "Karoo Gym")
        .await;
    assert_eq!(signed_up.status(), 200);
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let set = tab.command("a", set_account("62001234567", PASSWORD)).await;
    assert!(
        matches!(set, ServerFrame::Reply { ok: Some(_), .. }),
        "{set:?}"
    );
    pay_by_card_with(&server.browser(&Arc::default()), &mut tab, "YOGA-1").await;
    advance_clock(&mut tab, &mut watcher, ClockStep::Day, "2026-03-03").await;
    assert_eq!(balance(&mut tab).await, (NET_OF_ONE_CARD, 0));

    // Payouts arrive one after another; each wakes the scheduler, which
    // submits them.
    for n in 0..PAYOUTS {
        let frame = ClientFrame::Command {
            id: format!("payout-{n}"),
            command: Command::RequestPayout { amount_cents: 500 },
        };
        let bytes = protocol::encode(&frame).unwrap();
        tab.stream.send(Message::binary(bytes)).await.unwrap();
    }
    // Killed once the scheduler has submitted a few, with more requests and
    // scheduler steps still in flight.
    let mut submitted = 0;
    while submitted < 5 {
        if let ServerFrame::Delta { changes, .. } = watcher.next().await {
            submitted += changes
                .iter()
                .filter(|c| {
                    matches!(c, Change::PayoutUpserted { payout }
                        if payout.status == PayoutStatus::Submitted)
                })
                .count();
        }
    }
    server.kill();

    let store = Db::connect(&url).await.unwrap();
    let before = payout_rows(&store).await;
    assert!(!before.is_empty());
    assert_exactly_once(&before);
    let pending = before.iter().filter(|(_, s, _, _)| s == "pending").count();
    eprintln!(
        "at the kill: {} payouts, {pending} still pending",
        before.len()
    );

    // After a restart the scheduler's next step submits what was pending, once.
    let restarted = ServerProcess::start(dir.path(), &url, 2, &env).await;
    let again = restarted.browser(&jar);
    let mut tab = again.open(Mode::Test).await;
    let mut watcher = again.open(Mode::Test).await;
    let last = common::committed_id(
        tab.command("after", Command::RequestPayout { amount_cents: 500 })
            .await,
    );
    payout_reaches(&mut watcher, &last, PayoutStatus::Submitted).await;
    let after = payout_rows(&store).await;
    assert_eq!(after.len(), before.len() + 1);
    assert_exactly_once(&after);
    assert!(
        after.iter().all(|(_, status, _, _)| status == "submitted"),
        "{after:?}"
    );
    let out = 500 * after.len() as i64;
    assert_eq!(balance(&mut tab).await, (NET_OF_ONE_CARD - out, 0));
}

on_both_databases!(a_kill_while_submitting_leaves_each_payout_pending_or_submitted_once);
