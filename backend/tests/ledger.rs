//! The ledger through the live socket, in test mode with a pinned calendar:
//! collections credit the balance net of their fee, stay pending through
//! their method's settlement delay, and a dispute takes its money back.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support;
use crate::common;

use collection_support::{customer, monthly_debicheck, running};
use common::{Database, Socket, TestApp, advance_clock, committed_id};
use protocol::*;

async fn balance(socket: &mut Socket) -> Balance {
    match socket.query("b", Query::GetBalance {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Balance { balance }),
            ..
        } => *balance,
        other => panic!("{other:?}"),
    }
}

async fn debits_credit_the_balance_net_of_fees_after_their_settlement_delay(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let other = app.merchant("other@elsewhere.test").await;
    let mut stranger = other.open(Mode::Test).await;

    let customer_id = customer(&mut tab).await;
    let mut ids = Vec::new();
    // A debit the bank pays, and one the payer disputes five business days later.
    for (account, contract) in [("4000000001", "GYM2026"), ("4000000006", "GYM2027")] {
        let input = Box::new(monthly_debicheck(&customer_id, account, contract));
        let id = committed_id(
            tab.command(contract, Command::CreatePayment { input })
                .await,
        );
        running(&mut tab, &id).await;
        ids.push(id);
    }
    assert_eq!(
        balance(&mut tab).await,
        Balance {
            today: "2026-03-02".into(),
            available_cents: 0,
            pending_cents: 0,
        }
    );

    // Debited on Thursday 5 March, paid on the 6th: R100 less the DebiCheck
    // fee of R9 each, pending for ten business days.
    advance_clock(&mut tab, &mut watcher, ClockStep::Week, "2026-03-09").await;
    let week = balance(&mut tab).await;
    assert_eq!((week.available_cents, week.pending_cents), (0, 2 * 9_100));

    // The dispute took its debit back (and returned its fee); the other is
    // available once its delay has passed.
    advance_clock(&mut tab, &mut watcher, ClockStep::Week, "2026-03-16").await;
    let disputed = balance(&mut tab).await;
    assert_eq!(
        (disputed.available_cents, disputed.pending_cents),
        (0, 9_100)
    );
    advance_clock(&mut tab, &mut watcher, ClockStep::Week, "2026-03-23").await;
    let settled = balance(&mut tab).await;
    assert_eq!(
        (settled.available_cents, settled.pending_cents),
        (9_100, 0),
        "{settled:?}"
    );

    // Another merchant's balance is its own.
    let foreign = balance(&mut stranger).await;
    assert_eq!((foreign.available_cents, foreign.pending_cents), (0, 0));
}

on_both_databases!(debits_credit_the_balance_net_of_fees_after_their_settlement_delay);
