//! In test mode every business time follows the stream's clock: after the
//! test clock has moved on a month, what a test stream writes (customers,
//! payments and their mandates and debits, pay pages, orders, imports, the
//! history's "when", the settlement account's hold), through the socket,
//! the API and a spreadsheet alike, is stamped a month on, as its debits
//! are dated; live mode stays on the wall clock.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support;
use crate::collection_support;
use crate::common;
use crate::import_support;
use crate::payout_support;

use collection_support::{customer, monthly_debicheck, running};
use common::orders::order_of;
use common::{Database, Socket, TestApp, advance_clock, committed_id};
use paydesk::ids::now_ms;
use protocol::*;

const DAY_MS: i64 = 86_400_000;

/// Between `before` and `after` by the wall clock, moved on by `days`.
fn on_clock(at: i64, (before, after): (i64, i64), days: i64, what: &str) {
    let (from, to) = (before + days * DAY_MS, after + days * DAY_MS);
    assert!(
        (from..=to).contains(&at),
        "{what}: {at} is not within {from}..={to} ({days} days ahead of the wall clock)"
    );
}

async fn customer_of(socket: &mut Socket, id: &str) -> Customer {
    let query = Query::GetCustomer {
        customer_id: id.into(),
    };
    match socket.query("customer", query).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Customer { customer }),
            ..
        } => *customer,
        other => panic!("{other:?}"),
    }
}

async fn history_of(socket: &mut Socket, record_id: &str) -> Vec<HistoryEntry> {
    let query = Query::ListHistory {
        filter: HistoryFilter::default(),
        cursor: None,
        limit: Some(100),
    };
    match socket.query("history", query).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::HistoryPage { items, .. }),
            ..
        } => items
            .into_iter()
            .filter(|e| e.record_id.as_deref() == Some(record_id))
            .collect(),
        other => panic!("{other:?}"),
    }
}

async fn payout_settings(socket: &mut Socket) -> PayoutSettings {
    match socket.query("settings", Query::GetPayoutSettings {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::PayoutSettings { settings }),
            ..
        } => *settings,
        other => panic!("{other:?}"),
    }
}

async fn business_records_follow_the_test_clock(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    // Pinned to Monday 2 March 2026: a month on is Thursday 2 April.
    advance_clock(&mut tab, &mut watcher, ClockStep::Month, "2026-04-02").await;
    let days = 31;

    let before = now_ms();
    let customer_id = customer(&mut tab).await;
    let input = Box::new(PaymentInput {
        start_date: Some("2026-04-02".into()),
        ..monthly_debicheck(&customer_id, "4000000001", "GYMTHABO")
    });
    let payment_id = committed_id(tab.command("pay", Command::CreatePayment { input }).await);
    running(&mut tab, &payment_id).await;
    let page_id = common::orders::pay_card_page(&app.browser(), &mut tab, "YOGA-1", "Lerato").await;
    let set = tab
        .command(
            "account",
            payout_support::set_account("62001234567", payout_support::PASSWORD),
        )
        .await;
    assert!(
        matches!(set, ServerFrame::Reply { ok: Some(_), .. }),
        "{set:?}"
    );
    // From the merchant's own server, and from a spreadsheet.
    let secret = api_support::shop_token(&mut tab).await;
    let made = api_support::Api::new(&app, &secret)
        .post(
            "/customers",
            "k1",
            &serde_json::json!({"name": "Lerato Dlamini", "email": "lerato@example.co.za"}),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.json);
    let by_api = made.json["id"].as_str().unwrap().to_string();
    let file = format!(
        "{}\n{}",
        import_support::HEADER,
        import_support::row("APRIL-1", "150.00", "2026-04-10")
    );
    let preview = import_support::upload(&mut tab, "april.csv", file.as_bytes())
        .await
        .unwrap();
    let import_id = committed_id(import_support::confirm(&mut tab, &preview.upload_id).await);
    let import = import_support::completed(&mut watcher, &import_id).await;
    let after = now_ms();
    let wall = (before, after);

    on_clock(import.created_at, wall, days, "import created");
    on_clock(import.finished_at.unwrap(), wall, days, "import finished");
    let imported = import_support::payments_of(&mut tab, &import_id).await;
    on_clock(imported[0].created_at, wall, days, "imported payment");
    let from_api = customer_of(&mut tab, &by_api).await;
    on_clock(
        from_api.created_at,
        wall,
        days,
        "customer made through the API",
    );

    let thabo = customer_of(&mut tab, &customer_id).await;
    on_clock(thabo.created_at, wall, days, "customer created");
    on_clock(thabo.updated_at, wall, days, "customer changed");
    let payment = collection_support::payment(&mut tab, &payment_id).await;
    on_clock(payment.created_at, wall, days, "payment created");
    let mandate = collection_support::mandate(&mut tab, &payment.mandate_id).await;
    on_clock(mandate.created_at, wall, days, "mandate created");
    let order = order_of(&mut tab, &page_id).await;
    on_clock(order.created_at, wall, days, "order created");
    let debits = collection_support::transactions(
        &mut tab,
        TransactionFilter {
            order_id: Some(order.id.clone()),
            ..Default::default()
        },
    )
    .await;
    on_clock(debits[0].created_at, wall, days, "card transaction");
    let entries = history_of(&mut tab, &customer_id).await;
    assert!(!entries.is_empty());
    for entry in &entries {
        on_clock(entry.at, wall, days, "history entry");
    }
    // The 24-hour hold ends a day after the account was set, by the
    // stream's clock; less `clockAheadMs` it ends by the wall clock.
    let settings = payout_settings(&mut tab).await;
    assert_eq!(settings.clock_ahead_ms, days * DAY_MS);
    let held = settings.held_until.expect("a new account is held");
    on_clock(held - DAY_MS, wall, days, "hold");
    on_clock(
        held - settings.clock_ahead_ms - DAY_MS,
        wall,
        0,
        "hold by the wall clock",
    );
    let account = settings.account.expect("the account is set");
    on_clock(account.verified_at, wall, days, "account verified");

    // Live mode has one clock.
    let mut live = owner.open(Mode::Live).await;
    let before = now_ms();
    let live_customer = customer(&mut live).await;
    let after = now_ms();
    let created = customer_of(&mut live, &live_customer).await.created_at;
    on_clock(created, (before, after), 0, "live customer");
    assert_eq!(payout_settings(&mut live).await.clock_ahead_ms, 0);
}

on_both_databases!(business_records_follow_the_test_clock);
