//! Refunding a card order through the live socket: the money leaves the
//! merchant's ledger, only out of the available balance, and only once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Database, Socket, TestApp, advance_clock, committed_id, error_of};
use protocol::*;

fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + marker.len();
    html[start..].chars().take_while(|c| *c != '"').collect()
}

async fn pay_by_card(app: &TestApp, tab: &mut Socket) -> String {
    let input = PayPageInput {
        title: "Yoga class".into(),
        description: "One drop-in class.".into(),
        amount_mode: AmountMode::Fixed,
        amount_cents: Some(15_000),
        min_cents: None,
        max_cents: None,
        kind: PaymentKind::Once,
        interval: None,
        methods: vec![PaymentMethod::Card],
        expires_on: None,
        max_uses: None,
        reference: "YOGA-1".into(),
        success_url: None,
        colour: "#1e3a8a".into(),
    };
    let page_id = committed_id(
        tab.command(
            "page",
            Command::CreatePayPage {
                input: Box::new(input),
            },
        )
        .await,
    );
    let browser = app.browser();
    let html = browser
        .http
        .get(app.url(&format!("/pay/{page_id}?method=card")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let (csrf, attempt) = (hidden(&html, "csrfToken"), hidden(&html, "attempt"));
    let paid = browser
        .post_form(
            &format!("/pay/{page_id}"),
            &[
                ("csrfToken", csrf.as_str()),
                ("attempt", attempt.as_str()),
                ("method", "card"),
                ("name", "Lerato Dlamini"),
                ("email", "lerato@example.co.za"),
                ("cardNumber", "4242424242424242"),
                ("expiry", "12/29"),
                ("cvv", "123"),
            ],
        )
        .await;
    assert_eq!(paid.status(), 303);
    page_id
}

async fn order_of(socket: &mut Socket, page_id: &str) -> Order {
    let reply = socket
        .query(
            "orders",
            Query::ListOrders {
                filter: OrderFilter {
                    page_id: Some(page_id.into()),
                    ..Default::default()
                },
                cursor: None,
                limit: None,
            },
        )
        .await;
    match reply {
        ServerFrame::Reply {
            ok: Some(ReplyBody::OrderPage { mut items, .. }),
            ..
        } if items.len() == 1 => items.remove(0),
        other => panic!("{other:?}"),
    }
}

async fn balance(socket: &mut Socket) -> (i64, i64) {
    match socket.query("b", Query::GetBalance {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Balance { balance }),
            ..
        } => (balance.available_cents, balance.pending_cents),
        other => panic!("{other:?}"),
    }
}

fn refund(order_id: &str) -> Command {
    Command::ActOnOrder {
        order_id: order_id.into(),
        action: OrderAction::Refund,
    }
}

/// A payer refunded the day they paid: the refund comes out of the order's
/// own money, still pending, and neither pending nor available money goes
/// below nothing, then or when the payment would have settled.
async fn a_card_refund_the_same_day_comes_out_of_its_pending_money(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let page_id = pay_by_card(&app, &mut tab).await;
    let order = order_of(&mut tab, &page_id).await;
    assert_eq!(order.status, OrderStatus::Paid);

    // R150 less the card fee (2.95 % + R2 = R6.43), pending until tomorrow.
    assert_eq!(balance(&mut tab).await, (0, 14_357));
    let done = tab.command("r1", refund(&order.id)).await;
    assert!(
        matches!(done, ServerFrame::Reply { ok: Some(_), .. }),
        "{done:?}"
    );
    assert_eq!(
        order_of(&mut tab, &page_id).await.status,
        OrderStatus::Refunded
    );
    assert_eq!(balance(&mut tab).await, (0, 0));

    advance_clock(&mut tab, &mut watcher, ClockStep::Day, "2026-03-03").await;
    // The collection and its refund settle together: nothing either way.
    assert_eq!(balance(&mut tab).await, (0, 0));

    // A second refund of the same order is refused and moves no money.
    let again = error_of(tab.command("r2", refund(&order.id)).await);
    assert_eq!(again.code, ErrorCode::ActionNotAllowed);
    assert_eq!(balance(&mut tab).await, (0, 0));
}

/// Once the payment has settled, the refund takes available money back.
async fn a_card_refund_after_settlement_comes_out_of_available_money(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let page_id = pay_by_card(&app, &mut tab).await;
    let order = order_of(&mut tab, &page_id).await;
    advance_clock(&mut tab, &mut watcher, ClockStep::Day, "2026-03-03").await;
    assert_eq!(balance(&mut tab).await, (14_357, 0));
    let done = tab.command("r1", refund(&order.id)).await;
    assert!(
        matches!(done, ServerFrame::Reply { ok: Some(_), .. }),
        "{done:?}"
    );
    assert_eq!(balance(&mut tab).await, (0, 0));
}

on_both_databases!(
    a_card_refund_the_same_day_comes_out_of_its_pending_money,
    a_card_refund_after_settlement_comes_out_of_available_money,
);
