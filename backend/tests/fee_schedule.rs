//! A fee schedule chosen in the settings is what a collection is charged,
//! what its transaction and order show, and what a payout costs. Its own
//! test binary: the prices are fixed for the life of a process.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod collection_support;
mod common;
mod payout_support;

use common::{Database, TestApp, advance_clock, committed_id};
use payout_support::*;
use protocol::*;

/// Card at 1 % + R1.00 and payouts at R5.00: a R150 card payment costs
/// R2.50, not the default R6.43.
async fn a_configured_fee_is_charged_and_shown(db: Database) {
    let app = TestApp::start_with(db, |config| {
        config.business_date = Some(time::macros::date!(2026 - 03 - 02));
        config.fee_card = backend::config::parse_fee_setting("1%+1.00").unwrap();
        config.fee_payout_cents = backend::config::parse_payout_fee_setting("5.00").unwrap();
    })
    .await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    pay_by_card(&app, &mut tab, "YOGA-FEE").await;
    assert_eq!(balance(&mut tab).await, (0, 15_000 - 250));

    let transactions =
        collection_support::transactions(&mut tab, TransactionFilter::default()).await;
    assert_eq!(transactions.len(), 1);
    assert_eq!(
        (transactions[0].fee_cents, transactions[0].net_cents),
        (250, 14_750)
    );
    let orders = match tab
        .query(
            "o",
            Query::ListOrders {
                filter: OrderFilter::default(),
                cursor: None,
                limit: None,
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::OrderPage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    };
    assert_eq!((orders[0].fee_cents, orders[0].net_cents), (250, 14_750));

    // The payout fee is the configured one too.
    advance_clock(&mut tab, &mut watcher, ClockStep::Day, "2026-03-03").await;
    assert_eq!(balance(&mut tab).await, (14_750, 0));
    let set = tab.command("a", set_account("62001234567", PASSWORD)).await;
    assert!(
        matches!(set, ServerFrame::Reply { ok: Some(_), .. }),
        "{set:?}"
    );
    match tab.query("s", Query::GetPayoutSettings {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::PayoutSettings { settings }),
            ..
        } => assert_eq!(settings.fee_cents, 500),
        other => panic!("{other:?}"),
    }
    let id = committed_id(
        tab.command(
            "p",
            Command::RequestPayout {
                amount_cents: 10_000,
            },
        )
        .await,
    );
    let detail = payout(&mut tab, &id).await;
    assert_eq!(
        (detail.payout.fee_cents, detail.payout.net_cents),
        (500, 9_500)
    );
}

on_both_databases!(a_configured_fee_is_charged_and_shown);
