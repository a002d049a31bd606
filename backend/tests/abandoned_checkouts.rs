//! A payer who leaves the pay page at the 3-D Secure or bank step (issue
//! #44): the step expires after 30 minutes of the stream's clock, the order
//! says abandoned, and an answer after that charges nothing. Expired by
//! moving the test clock on a day, and by the wall clock (the attempt's
//! expiry moved 30 minutes back, as if the payer had been gone that long).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support::transactions;
use crate::common;

use common::orders::{balance, create_pay_page, hidden, yoga_class};
use common::{Browser, Database, Socket, TestApp, advance_clock};
use protocol::*;

/// How long the step waits, in milliseconds (README, "Payment pages").
const EXPIRY_MS: i64 = 30 * 60 * 1000;

async fn create_page(tab: &mut Socket) -> String {
    let methods = vec![PaymentMethod::Card, PaymentMethod::InstantEft];
    create_pay_page(tab, yoga_class("YOGA-1", methods)).await
}

async fn get(browser: &Browser, path: &str) -> String {
    let page = browser
        .http
        .get(format!("{}{path}", browser.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200, "{path}");
    page.text().await.unwrap()
}

/// A payer who reached the step of `method` (a challenged card, or their
/// bank) and left it open.
struct Left {
    browser: Browser,
    /// The step's address.
    step: String,
    /// The step form's CSRF token, to answer it later.
    csrf: String,
}

async fn left_at_the_step(app: &TestApp, page_id: &str, method: &str) -> Left {
    let browser = app.browser();
    let form = get(&browser, &format!("/pay/{page_id}?method={method}")).await;
    let (csrf, attempt) = (hidden(&form, "csrfToken"), hidden(&form, "attempt"));
    let mut fields = vec![
        ("csrfToken", csrf.as_str()),
        ("attempt", attempt.as_str()),
        ("method", method),
        ("name", "Lerato Dlamini"),
        ("email", "lerato@example.co.za"),
    ];
    if method == "card" {
        fields.extend([
            ("cardNumber", "4000000000003220"),
            ("expiry", "12/29"),
            ("cvv", "123"),
        ]);
    } else {
        fields.push(("bank", "capitec"));
    }
    let submitted = browser.post_form(&format!("/pay/{page_id}"), &fields).await;
    assert_eq!(submitted.status(), 303);
    let step = submitted.headers()["location"]
        .to_str()
        .unwrap()
        .to_string();
    let shown = get(&browser, &step).await;
    assert!(shown.contains("name=\"answer\""), "the step waits: {shown}");
    Left {
        csrf: hidden(&shown, "csrfToken"),
        browser,
        step,
    }
}

/// The payer comes back and answers `answer` on the step's form they left
/// open; the page they land on.
async fn answer(left: &Left, answer: &str) -> String {
    let answered = left
        .browser
        .post_form(
            &left.step,
            &[("csrfToken", left.csrf.as_str()), ("answer", answer)],
        )
        .await;
    assert_eq!(answered.status(), 303);
    get(&left.browser, &left.step).await
}

async fn orders(tab: &mut Socket) -> Vec<Order> {
    let query = Query::ListOrders {
        filter: OrderFilter::default(),
        cursor: None,
        limit: None,
    };
    match tab.query("orders", query).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::OrderPage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    }
}

/// Every order is abandoned, withdrawn before the bank, and nothing was
/// charged: no debit paid, no money on the balance.
async fn all_abandoned_and_nothing_charged(tab: &mut Socket, count: usize) {
    let all = orders(tab).await;
    assert_eq!(all.len(), count, "{all:?}");
    for order in &all {
        assert_eq!(
            (order.status, order.failure),
            (OrderStatus::Abandoned, Some(PayFailure::Abandoned)),
            "{order:?}"
        );
        let debits = transactions(
            tab,
            TransactionFilter {
                order_id: Some(order.id.clone()),
                ..Default::default()
            },
        )
        .await;
        assert_eq!(debits.len(), 1, "{debits:?}");
        let debit = &debits[0];
        assert_eq!(debit.status, TransactionStatus::Cancelled, "{debit:?}");
        assert!(
            debit
                .history
                .iter()
                .all(|s| s.status != TransactionStatus::Paid),
            "{debit:?}"
        );
    }
    assert_eq!(balance(tab).await, (0, 0));
}

/// The step's page in both languages, once expired: no challenge offered,
/// only the expiry and that nothing was charged.
async fn says_expired(left: &Left) {
    let (browser, step) = (&left.browser, &left.step);
    let afrikaans = get(browser, &format!("{step}?lang=afr")).await;
    assert!(
        afrikaans.contains("Hierdie betaling het verval"),
        "{afrikaans}"
    );
    assert!(afrikaans.contains("Niks is gehef nie"), "{afrikaans}");
    // English last: the payer's language choice is kept for their next page.
    let english = get(browser, &format!("{step}?lang=en")).await;
    assert!(english.contains("This payment expired"), "{english}");
    assert!(english.contains("Nothing was charged"), "{english}");
    assert!(!english.contains("name=\"answer\""), "{english}");
}

async fn a_step_left_a_day_of_the_test_clock_is_abandoned(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let page_id = create_page(&mut tab).await;
    let card = left_at_the_step(&app, &page_id, "card").await;
    let bank = left_at_the_step(&app, &page_id, "instant_eft").await;
    assert!(
        orders(&mut tab)
            .await
            .iter()
            .all(|o| o.status == OrderStatus::Pending)
    );

    // A day on, the scheduler abandoned both without the payers coming back.
    advance_clock(&mut tab, &mut watcher, ClockStep::Day, "2026-03-03").await;
    all_abandoned_and_nothing_charged(&mut tab, 2).await;
    says_expired(&card).await;
    says_expired(&bank).await;

    // Answering now charges nothing and changes nothing.
    let late = answer(&card, "approve").await;
    assert!(late.contains("This payment expired"), "{late}");
    assert!(!late.contains("Payment successful"), "{late}");
    answer(&bank, "approve").await;
    all_abandoned_and_nothing_charged(&mut tab, 2).await;
    // A month on, still so.
    advance_clock(&mut tab, &mut watcher, ClockStep::Month, "2026-04-03").await;
    all_abandoned_and_nothing_charged(&mut tab, 2).await;

    // Another merchant sees none of it.
    let stranger = app.merchant("other@elsewhere.test").await;
    let mut theirs = stranger.open(Mode::Test).await;
    assert!(orders(&mut theirs).await.is_empty());
}

async fn a_step_answered_after_thirty_minutes_charges_nothing(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let page_id = create_page(&mut tab).await;
    let card = left_at_the_step(&app, &page_id, "card").await;

    // The step expires 30 minutes after it was offered.
    let db = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let (created_at, expires_at): (i64, i64) =
        sqlx::query_as("SELECT created_at, expires_at FROM pay_attempts")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    let waits = expires_at - created_at;
    assert!(
        (EXPIRY_MS - 5_000..=EXPIRY_MS).contains(&waits),
        "{waits} ms"
    );
    // Half an hour later by the wall clock: the payer was gone that long.
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query("UPDATE pay_attempts SET expires_at = expires_at - $1")
        .bind(EXPIRY_MS)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    // The page no longer offers the challenge, and approving it is too late.
    says_expired(&card).await;
    let late = answer(&card, "approve").await;
    assert!(late.contains("This payment expired"), "{late}");
    all_abandoned_and_nothing_charged(&mut tab, 1).await;
    let failed: (String, Option<String>) =
        sqlx::query_as("SELECT status, failure FROM pay_attempts")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(
        failed,
        ("failed".to_string(), Some("abandoned".to_string()))
    );
}

on_both_databases!(
    a_step_left_a_day_of_the_test_clock_is_abandoned,
    a_step_answered_after_thirty_minutes_charges_nothing
);
