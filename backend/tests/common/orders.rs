//! Card orders for tests: a payer paying a pay page by card on the real pay
//! page, and the merchant's reads and refunds of the order.

use std::sync::atomic::{AtomicUsize, Ordering};

use protocol::*;

use super::{Browser, Socket, TestApp, committed_id};

/// The value of the hidden input `name` in a page.
pub fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + marker.len();
    html[start..].chars().take_while(|c| *c != '"').collect()
}

/// Pays a new R150 card pay page as a payer would (its page id).
pub async fn pay_by_card(app: &TestApp, tab: &mut Socket) -> String {
    pay_by_card_as(app, tab, "Lerato Dlamini").await
}

/// The same, by a payer who gives `name`.
pub async fn pay_by_card_as(app: &TestApp, tab: &mut Socket, name: &str) -> String {
    pay_card_page(&app.browser(), tab, "YOGA-1", name).await
}

/// A fixed R150 yoga class page with `reference`, paid by any of `methods`.
pub fn yoga_class(reference: &str, methods: Vec<PaymentMethod>) -> PayPageInput {
    PayPageInput {
        title: "Yoga class".into(),
        description: "One drop-in class at the Karoo studio.".into(),
        amount_mode: AmountMode::Fixed,
        amount_cents: Some(15_000),
        min_cents: None,
        max_cents: None,
        kind: PaymentKind::Once,
        interval: None,
        methods,
        expires_on: None,
        max_uses: None,
        reference: reference.into(),
        success_url: None,
        colour: "#1e3a8a".into(),
    }
}

/// Makes a pay page: its id.
pub async fn create_pay_page(tab: &mut Socket, input: PayPageInput) -> String {
    // Each page its own command id: a test may make several alike.
    static PAGES: AtomicUsize = AtomicUsize::new(0);
    let n = PAGES.fetch_add(1, Ordering::Relaxed);
    committed_id(
        tab.command(
            &format!("page-{}-{n}", input.reference),
            Command::CreatePayPage {
                input: Box::new(input),
            },
        )
        .await,
    )
}

/// A new R150 card pay page with `reference`, paid by `name` in `browser`
/// (also a server started as a process): its page id.
pub async fn pay_card_page(
    browser: &Browser,
    tab: &mut Socket,
    reference: &str,
    name: &str,
) -> String {
    let input = yoga_class(reference, vec![PaymentMethod::Card]);
    let page_id = create_pay_page(tab, input).await;
    let html = browser
        .http
        .get(format!("{}/pay/{page_id}?method=card", browser.base))
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
                ("name", name),
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

/// The one order of a pay page.
pub async fn order_of(socket: &mut Socket, page_id: &str) -> Order {
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

/// (available, pending) on the stream's business date.
pub async fn balance(socket: &mut Socket) -> (i64, i64) {
    match socket.query("b", Query::GetBalance {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Balance { balance }),
            ..
        } => (balance.available_cents, balance.pending_cents),
        other => panic!("{other:?}"),
    }
}

/// Refunds what is left of an order.
pub fn refund(order_id: &str) -> Command {
    refund_part(order_id, None)
}

/// Refunds `amount_cents` of an order (what is left when none).
pub fn refund_part(order_id: &str, amount_cents: Option<i64>) -> Command {
    Command::ActOnOrder {
        order_id: order_id.into(),
        action: OrderAction::Refund,
        amount_cents,
    }
}
