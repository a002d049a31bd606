//! Refunding a card order through the live socket: the money leaves the
//! merchant's ledger, only out of the available balance, and only once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::orders::{balance, order_of, pay_by_card, refund, refund_part};
use common::{Database, Socket, TestApp, advance_clock, error_of};
use protocol::*;

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

async fn get_order(socket: &mut Socket, order_id: &str) -> Order {
    match socket
        .query(
            "get-order",
            Query::GetOrder {
                order_id: order_id.into(),
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Order { order }),
            ..
        } => *order,
        other => panic!("{other:?}"),
    }
}

/// A refund of part of a card order: the order stays paid and shows what
/// was refunded, each refund is a record of its own with its share of the
/// fee given back, and no refund goes beyond what is left.
async fn a_card_order_is_refunded_in_parts_never_beyond_what_was_paid(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let page_id = pay_by_card(&app, &mut tab).await;
    let order = order_of(&mut tab, &page_id).await;
    // R150 at 2.95 % + R2: R6.43 of fee.
    assert_eq!((order.fee_cents, order.net_cents), (643, 14_357));

    let first = tab.command("p1", refund_part(&order.id, Some(5_000))).await;
    assert!(
        matches!(first, ServerFrame::Reply { ok: Some(_), .. }),
        "{first:?}"
    );
    let seen = get_order(&mut tab, &order.id).await;
    assert_eq!(seen.status, OrderStatus::Paid);
    assert_eq!(seen.refunded_cents, 5_000);
    assert_eq!(seen.refunds.len(), 1);
    // A third of the amount gives back a third of the fee (R2.14).
    assert_eq!(seen.refunds[0].amount_cents, 5_000);
    assert_eq!(seen.refunds[0].fee_return_cents, 214);
    assert_eq!((seen.fee_cents, seen.net_cents), (429, 9_571));
    assert_eq!(balance(&mut tab).await, (0, 9_571));

    for (id, amount, code) in [
        ("p2", 10_001, ErrorCode::RefundExceedsRemaining),
        ("p3", 0, ErrorCode::InvalidAmount),
        ("p4", -100, ErrorCode::InvalidAmount),
    ] {
        let refused = error_of(tab.command(id, refund_part(&order.id, Some(amount))).await);
        assert_eq!(refused.code, ErrorCode::InvalidInput, "{amount}");
        assert_eq!(
            refused.fields,
            vec![FieldError {
                field: "amountCents".into(),
                code
            }]
        );
    }
    assert_eq!(balance(&mut tab).await, (0, 9_571));

    // No amount refunds what is left, and the whole fee has come back.
    let rest = tab.command("p5", refund(&order.id)).await;
    assert!(
        matches!(rest, ServerFrame::Reply { ok: Some(_), .. }),
        "{rest:?}"
    );
    let seen = get_order(&mut tab, &order.id).await;
    assert_eq!(seen.status, OrderStatus::Refunded);
    assert_eq!(seen.refunded_cents, 15_000);
    assert_eq!(seen.refunds.len(), 2);
    assert_eq!(seen.refunds[1].amount_cents, 10_000);
    assert_eq!((seen.fee_cents, seen.net_cents), (0, 0));
    assert_eq!(balance(&mut tab).await, (0, 0));
    let again = error_of(tab.command("p6", refund_part(&order.id, Some(1))).await);
    assert_eq!(again.code, ErrorCode::ActionNotAllowed);
}

/// Sends `count` refunds of `amount_cents` at once, spread over `tabs` (each
/// tab sends all of its share before reading a reply): how many went
/// through, and the codes of the refused ones.
async fn refund_at_once(
    tabs: &mut [Socket],
    order_id: &str,
    count: usize,
    amount_cents: i64,
) -> (usize, Vec<ErrorCode>) {
    let per_tab = count / tabs.len();
    let runs = tabs.iter_mut().enumerate().map(|(t, tab)| async move {
        let ids: Vec<String> = (0..per_tab).map(|i| format!("c{t}-{i}")).collect();
        for id in &ids {
            tab.send(&ClientFrame::Command {
                id: id.clone(),
                command: refund_part(order_id, Some(amount_cents)),
            })
            .await;
        }
        let mut replies = Vec::new();
        while replies.len() < ids.len() {
            if let ServerFrame::Reply { id, ok, error, .. } = tab.next().await
                && ids.contains(&id)
            {
                // A refusal names the amount's field and its reason.
                let code = error.map(|e| e.fields.first().map_or(e.code, |f| f.code));
                replies.push((ok.is_some(), code));
            }
        }
        replies
    });
    let replies: Vec<_> = futures_util::future::join_all(runs)
        .await
        .into_iter()
        .flatten()
        .collect();
    let done = replies.iter().filter(|(ok, _)| *ok).count();
    let refused = replies.into_iter().filter_map(|(_, code)| code).collect();
    (done, refused)
}

/// Twenty R8 refunds of a R150 order at once: eighteen go through (R144)
/// and the two that would go beyond what is left are refused, so the order
/// is never refunded more than was paid and the balance never goes below
/// what the order still holds.
async fn concurrent_partial_refunds_never_exceed_the_order(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let page_id = pay_by_card(&app, &mut tab).await;
    let order = order_of(&mut tab, &page_id).await;
    let mut tabs = Vec::new();
    for _ in 0..4 {
        tabs.push(owner.open(Mode::Test).await);
    }
    let (done, refused) = refund_at_once(&mut tabs, &order.id, 20, 800).await;
    assert_eq!(done, 18);
    assert_eq!(refused, vec![ErrorCode::RefundExceedsRemaining; 2]);
    let seen = get_order(&mut tab, &order.id).await;
    assert_eq!(seen.status, OrderStatus::Paid);
    assert_eq!(seen.refunded_cents, 14_400);
    assert_eq!(seen.refunds.len(), 18);
    // Each R8 gives back R0.34 of the R6.43 fee; R0.31 of it stays.
    assert_eq!(
        seen.refunds.iter().map(|r| r.fee_return_cents).sum::<i64>(),
        612
    );
    assert_eq!((seen.fee_cents, seen.net_cents), (31, 569));
    assert_eq!(balance(&mut tab).await, (0, 569));
}

on_both_databases!(
    a_card_order_is_refunded_in_parts_never_beyond_what_was_paid,
    concurrent_partial_refunds_never_exceed_the_order,
);

/// The same on two nodes sharing one PostgreSQL: refunds sent to both at
/// once are checked inside each write transaction, under the stream's lock.
#[actix_web::test]
async fn concurrent_partial_refunds_on_two_nodes_never_exceed_the_order() {
    let Some(Database::Postgres(base)) = Database::postgres() else {
        eprintln!("TEST_DATABASE_URL is not set: the two-node run is skipped");
        return;
    };
    let url = common::fresh_postgres_database(&base).await;
    let pinned = |config: &mut backend::config::Config| {
        config.business_date = Some(time::macros::date!(2026 - 03 - 02))
    };
    let node_a = TestApp::start_at_with(&url, pinned).await;
    let node_b = TestApp::start_at_with(&url, pinned).await;
    let on_a = node_a.merchant("owner@example.co.za").await;
    let on_b = node_b.browser();
    assert_eq!(
        on_b.sign_in("owner@example.co.za", "karoo-sunset-41", "/")
            .await
            .status(),
        200
    );
    let mut tab = on_a.open(Mode::Test).await;
    let page_id = pay_by_card(&node_a, &mut tab).await;
    let order = order_of(&mut tab, &page_id).await;
    let mut tabs = vec![
        on_a.open(Mode::Test).await,
        on_b.open(Mode::Test).await,
        on_a.open(Mode::Test).await,
        on_b.open(Mode::Test).await,
    ];
    let (done, refused) = refund_at_once(&mut tabs, &order.id, 20, 800).await;
    assert_eq!(done, 18);
    assert_eq!(refused, vec![ErrorCode::RefundExceedsRemaining; 2]);
    let seen = get_order(&mut tab, &order.id).await;
    assert_eq!(seen.refunded_cents, 14_400);
    assert_eq!(seen.refunds.len(), 18);
    assert_eq!(balance(&mut tab).await, (0, 569));
}
