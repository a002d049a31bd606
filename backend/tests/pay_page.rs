//! The public pay page over real HTTP, with the merchant watching over the
//! socket: languages and size, card payments (approved, declined, 3-D
//! Secure), pay by bank, double submits, CSRF, and closed pages.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support::transactions;
use crate::common;

use std::time::Duration;

use common::orders::{create_pay_page, hidden, yoga_class};
use common::{Browser, Database, Socket, TestApp, committed_id, error_of};
use protocol::*;

fn page_input(kind: PaymentKind) -> PayPageInput {
    let methods = match kind {
        PaymentKind::Once => vec![PaymentMethod::Card, PaymentMethod::InstantEft],
        PaymentKind::Recurring => vec![PaymentMethod::Card],
    };
    PayPageInput {
        kind,
        interval: (kind == PaymentKind::Recurring).then_some(PageInterval::Monthly),
        ..yoga_class("YOGA-1", methods)
    }
}

/// A payer's browser with the form of `/pay/{id}?method=…` loaded.
struct Payer {
    browser: Browser,
    csrf: String,
    attempt: String,
}

async fn payer(app: &TestApp, page_id: &str, method: &str) -> Payer {
    let browser = app.browser();
    let response = browser
        .http
        .get(app.url(&format!("/pay/{page_id}?method={method}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let html = response.text().await.unwrap();
    Payer {
        csrf: hidden(&html, "csrfToken"),
        attempt: hidden(&html, "attempt"),
        browser,
    }
}

fn card_form<'a>(payer: &'a Payer, number: &'a str) -> Vec<(&'static str, &'a str)> {
    vec![
        ("csrfToken", payer.csrf.as_str()),
        ("attempt", payer.attempt.as_str()),
        ("method", "card"),
        ("name", "Lerato Dlamini"),
        ("email", "lerato@example.co.za"),
        ("cardNumber", number),
        ("expiry", "12/29"),
        ("cvv", "123"),
    ]
}

async fn orders(socket: &mut Socket, page_id: &str) -> Vec<Order> {
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
            ok: Some(ReplyBody::OrderPage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    }
}

async fn follow(browser: &Browser, response: reqwest::Response) -> String {
    assert_eq!(response.status(), 303, "expected a redirect");
    let location = response.headers()["location"].to_str().unwrap().to_string();
    let page = browser
        .http
        .get(format!("{}{}", browser.base, location))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    page.text().await.unwrap()
}

async fn the_page_renders_small_in_both_languages(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let page_id = create_pay_page(&mut tab, page_input(PaymentKind::Once)).await;
    let get = |accept: &'static str, query: &'static str| {
        let http = app.browser().http;
        let url = app.url(&format!("/pay/{page_id}{query}"));
        async move {
            http.get(url)
                .header("accept-language", accept)
                .send()
                .await
                .unwrap()
        }
    };
    let afr = get("af-ZA,af;q=0.9", "").await;
    assert_eq!(afr.status(), 200);
    let csp = afr.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("default-src 'none'"), "{csp}");
    let afr = afr.text().await.unwrap();
    assert!(afr.contains("<html lang=\"af\">"), "{afr}");
    assert!(afr.contains("Kaartnommer") && afr.contains("Betaal R\u{a0}150,00"));
    let en = get("af-ZA", "?lang=en").await;
    let cookie = en.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("locale=en"), "{cookie}");
    let en = en.text().await.unwrap();
    assert!(
        en.contains("<html lang=\"en\">")
            && en.contains("Card number")
            && en.contains("Pay R\u{a0}150,00")
    );
    // Labels for every field, and no script at all.
    for id in ["name", "email", "card-number", "expiry", "cvv"] {
        assert!(en.contains(&format!("<label for=\"{id}\">")), "{id}");
    }
    assert!(!en.contains("<script"));
    // HTML and CSS together, in one response.
    assert!(en.len() <= 30 * 1024, "{} bytes", en.len());
    let bank = get("en", "?method=instant_eft").await.text().await.unwrap();
    assert!(bank.contains("<select id=\"bank\"") && bank.contains("Capitec"));
    assert!(bank.len() <= 30 * 1024, "{} bytes", bank.len());
}

async fn a_card_payment_shows_up_live_and_never_echoes_the_number(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let page_id = create_pay_page(&mut tab, page_input(PaymentKind::Once)).await;

    // Declined: the form again, the reason, the name kept, never the number.
    let payer = payer(&app, &page_id, "card").await;
    let declined = payer
        .browser
        .post_form(
            &format!("/pay/{page_id}"),
            &card_form(&payer, "4000 0000 0000 0002"),
        )
        .await;
    assert_eq!(declined.status(), 402);
    let html = declined.text().await.unwrap();
    assert!(html.contains("Your bank declined the card"), "{html}");
    assert!(html.contains("value=\"Lerato Dlamini\""));
    // (The test-mode hint lists the test cards, spaced; the typed number is never sent back.)
    let card_input = &html[html.find("id=\"card-number\"").unwrap()..];
    let card_input = &card_input[..card_input.find('>').unwrap()];
    assert!(!card_input.contains("value="), "{card_input}");
    assert!(!html.contains("4000000000000002"));
    assert!(!html.contains("value=\"123\""), "the CVV is never echoed");
    assert_ne!(
        hidden(&html, "attempt"),
        payer.attempt,
        "a new attempt for the next try"
    );

    // Approved: redirected to the outcome, receipt on its way.
    let retry = Payer {
        attempt: hidden(&html, "attempt"),
        csrf: payer.csrf.clone(),
        browser: payer.browser,
    };
    let paid = retry
        .browser
        .post_form(
            &format!("/pay/{page_id}"),
            &card_form(&retry, "4242424242424242"),
        )
        .await;
    let done = follow(&retry.browser, paid).await;
    assert!(
        done.contains("Payment successful") && done.contains("R\u{a0}150,00"),
        "{done}"
    );
    assert!(done.contains("•••• 4242") && !done.contains("4242424242424242"));

    // The merchant's other tab sees the transaction and the order arrive.
    let delta = watcher
        .next_matching(|f| {
            matches!(f, ServerFrame::Delta { changes, .. }
                if changes.iter().any(|c| matches!(c, Change::OrderUpserted { order } if order.status == OrderStatus::Paid)))
        })
        .await;
    let ServerFrame::Delta { changes, .. } = delta else {
        unreachable!()
    };
    let transaction = changes
        .iter()
        .find_map(|c| match c {
            Change::TransactionUpserted { transaction } => Some(transaction.clone()),
            _ => None,
        })
        .expect("the transaction is in the delta");
    assert_eq!(transaction.status, TransactionStatus::Paid);
    assert_eq!(transaction.card_brand, Some(CardBrand::Visa));
    assert_eq!(transaction.account_last_digits, "4242");
    assert_eq!(transaction.customer_name, "Lerato Dlamini");
    let all = orders(&mut tab, &page_id).await;
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].status, OrderStatus::Paid);
    assert_eq!(all[1].status, OrderStatus::Failed);
    assert_eq!(all[1].failure, Some(PayFailure::Declined));
    // One use counted; the receipt went out.
    let page = match tab
        .query(
            "get",
            Query::GetPayPage {
                page_id: page_id.clone(),
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::PayPage { page }),
            ..
        } => page,
        other => panic!("{other:?}"),
    };
    assert_eq!(page.uses, 1);
    for _ in 0..50 {
        if app.mails_to("lerato@example.co.za") > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        app.mails_to("lerato@example.co.za"),
        1,
        "one receipt, for the paid attempt"
    );

    // Both attempts are events of the payer on this page, from their address.
    let causes = app.event_causes("owner@example.co.za", Mode::Test).await;
    let payers: Vec<_> = causes.iter().filter(|c| c.actor_kind == "payer").collect();
    assert_eq!(payers.len(), 2, "{causes:?}");
    for attempt in payers {
        assert_eq!(attempt.actor_id.as_deref(), Some(page_id.as_str()));
        assert_eq!(attempt.client_address.as_deref(), Some("127.0.0.1"));
        assert_eq!((&attempt.session_id, &attempt.command_id), (&None, &None));
    }
}

async fn a_double_submit_charges_once(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let page_id = create_pay_page(&mut tab, page_input(PaymentKind::Once)).await;
    let payer = payer(&app, &page_id, "card").await;
    let form = card_form(&payer, "4242424242424242");
    let path = format!("/pay/{page_id}");
    let (first, second) = tokio::join!(
        payer.browser.post_form(&path, &form),
        payer.browser.post_form(&path, &form)
    );
    let (first, second) = (
        first.headers()["location"].to_str().unwrap().to_string(),
        second.headers()["location"].to_str().unwrap().to_string(),
    );
    assert_eq!(first, second, "both submits land on the one attempt");
    // And a third, later, too.
    let third = payer.browser.post_form(&path, &form).await;
    assert_eq!(third.headers()["location"].to_str().unwrap(), first);
    let all = orders(&mut tab, &page_id).await;
    assert_eq!(all.len(), 1, "{all:?}");
    let filter = TransactionFilter {
        order_id: Some(all[0].id.clone()),
        ..Default::default()
    };
    let transactions = transactions(&mut tab, filter).await;
    assert_eq!(transactions.len(), 1);
}

async fn forms_without_the_csrf_token_are_refused(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let page_id = create_pay_page(&mut tab, page_input(PaymentKind::Once)).await;
    let mut payer = payer(&app, &page_id, "card").await;
    payer.csrf = "forged".into();
    let refused = payer
        .browser
        .post_form(
            &format!("/pay/{page_id}"),
            &card_form(&payer, "4242424242424242"),
        )
        .await;
    assert_eq!(refused.status(), 403);
    // A browser with no cookie at all, carrying a token it saw elsewhere.
    let real = payer_with_token(&app, &page_id).await;
    let stranger = app.browser();
    let refused = stranger
        .post_form(
            &format!("/pay/{page_id}"),
            &card_form(
                &Payer {
                    browser: app.browser(),
                    csrf: real.0,
                    attempt: real.1,
                },
                "4242424242424242",
            ),
        )
        .await;
    assert_eq!(refused.status(), 403);
    assert!(orders(&mut tab, &page_id).await.is_empty());
}

async fn payer_with_token(app: &TestApp, page_id: &str) -> (String, String) {
    let p = payer(app, page_id, "card").await;
    (p.csrf, p.attempt)
}

async fn three_d_secure_and_pay_by_bank_wait_for_the_payer(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let page_id = create_pay_page(&mut tab, page_input(PaymentKind::Once)).await;

    let card = payer(&app, &page_id, "card").await;
    let challenged = card
        .browser
        .post_form(
            &format!("/pay/{page_id}"),
            &card_form(&card, "4000000000003220"),
        )
        .await;
    let location = challenged.headers()["location"]
        .to_str()
        .unwrap()
        .to_string();
    let step = follow(&card.browser, challenged).await;
    assert!(step.contains("Confirm with your bank"), "{step}");
    assert_eq!(
        orders(&mut tab, &page_id).await[0].status,
        OrderStatus::Pending
    );
    let csrf = hidden(&step, "csrfToken");
    let approved = card
        .browser
        .post_form(
            &location,
            &[("csrfToken", csrf.as_str()), ("answer", "approve")],
        )
        .await;
    let done = follow(&card.browser, approved).await;
    assert!(done.contains("Payment successful"));
    // A second answer changes nothing.
    let again = card
        .browser
        .post_form(
            &location,
            &[("csrfToken", csrf.as_str()), ("answer", "refuse")],
        )
        .await;
    assert!(
        follow(&card.browser, again)
            .await
            .contains("Payment successful")
    );
    assert_eq!(
        orders(&mut tab, &page_id).await[0].status,
        OrderStatus::Paid
    );

    let bank = payer(&app, &page_id, "instant_eft").await;
    let form = [
        ("csrfToken", bank.csrf.as_str()),
        ("attempt", bank.attempt.as_str()),
        ("method", "instant_eft"),
        ("name", "Sipho Ndlovu"),
        ("email", ""),
        ("bank", "capitec"),
    ];
    let waiting = bank
        .browser
        .post_form(&format!("/pay/{page_id}"), &form)
        .await;
    let location = waiting.headers()["location"].to_str().unwrap().to_string();
    let step = follow(&bank.browser, waiting).await;
    assert!(step.contains("Capitec asks you to approve"), "{step}");
    let csrf = hidden(&step, "csrfToken");
    let cancelled = bank
        .browser
        .post_form(
            &location,
            &[("csrfToken", csrf.as_str()), ("answer", "refuse")],
        )
        .await;
    let failed = follow(&bank.browser, cancelled).await;
    assert!(failed.contains("The payment was cancelled"), "{failed}");
    let newest = &orders(&mut tab, &page_id).await[0];
    assert_eq!(
        (newest.status, newest.method),
        (OrderStatus::Cancelled, PaymentMethod::InstantEft)
    );
}

async fn bad_answers_are_named_and_nothing_is_written(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut input = page_input(PaymentKind::Once);
    input.amount_mode = AmountMode::PayerChosen;
    input.amount_cents = None;
    input.min_cents = Some(5_000);
    input.max_cents = Some(100_000);
    let page_id = create_pay_page(&mut tab, input).await;
    let payer = payer(&app, &page_id, "card").await;
    let mut form = card_form(&payer, "4242424242424241");
    form.push(("amount", "20"));
    form.retain(|(k, _)| *k != "name");
    let bad = payer
        .browser
        .post_form(&format!("/pay/{page_id}"), &form)
        .await;
    assert_eq!(bad.status(), 422);
    let html = bad.text().await.unwrap();
    for (field, message) in [
        ("amount", "below the minimum"),
        ("name", "required"),
        ("card-number", "not a valid card number"),
    ] {
        assert!(
            html.contains(&format!("aria-describedby=\"{field}-error\""))
                || html.contains(&format!("{field}-error")),
            "{field}"
        );
        assert!(html.to_lowercase().contains(message), "{message} in {html}");
    }
    assert!(!html.contains("4242424242424241"));
    assert!(orders(&mut tab, &page_id).await.is_empty());
}

async fn a_live_page_refuses_the_test_cards(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Live).await;
    let page_id = create_pay_page(&mut tab, page_input(PaymentKind::Once)).await;
    let payer = payer(&app, &page_id, "card").await;
    let form = card_form(&payer, "4242424242424242");
    let refused = payer
        .browser
        .post_form(&format!("/pay/{page_id}"), &form)
        .await;
    assert_eq!(refused.status(), 422);
    let html = refused.text().await.unwrap();
    assert!(
        html.contains("card-number-error") && html.contains("test card"),
        "{html}"
    );
    assert!(orders(&mut tab, &page_id).await.is_empty());
}

async fn closed_pages_say_so(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let page_id = create_pay_page(&mut tab, page_input(PaymentKind::Once)).await;
    let http = app.browser().http;
    let status = |path: String| {
        let http = http.clone();
        let url = app.url(&path);
        async move { http.get(url).send().await.unwrap().status().as_u16() }
    };
    assert_eq!(status("/pay/ppg_unknown".into()).await, 404);
    assert_eq!(status("/pay/..%2F..".into()).await, 404);
    tab.command(
        "off",
        Command::SetPayPageActive {
            page_id: page_id.clone(),
            active: false,
        },
    )
    .await;
    assert_eq!(status(format!("/pay/{page_id}")).await, 404);
    tab.command(
        "on",
        Command::SetPayPageActive {
            page_id: page_id.clone(),
            active: true,
        },
    )
    .await;
    assert_eq!(status(format!("/pay/{page_id}")).await, 200);
    // One use allowed, then used up.
    let mut once = page_input(PaymentKind::Once);
    once.max_uses = Some(1);
    tab.command(
        "limit",
        Command::UpdatePayPage {
            page_id: page_id.clone(),
            input: Box::new(once),
            base_version: None,
        },
    )
    .await;
    let payer = payer(&app, &page_id, "card").await;
    let paid = payer
        .browser
        .post_form(
            &format!("/pay/{page_id}"),
            &card_form(&payer, "4242424242424242"),
        )
        .await;
    assert_eq!(paid.status(), 303);
    let gone = http
        .get(app.url(&format!("/pay/{page_id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), 410);
    assert!(
        gone.text()
            .await
            .unwrap()
            .contains("This payment page is closed")
    );
    // A page may not expire in the past.
    let mut expired = page_input(PaymentKind::Once);
    expired.expires_on = Some("2026-03-01".into());
    let refused = error_of(
        tab.command(
            "past",
            Command::UpdatePayPage {
                page_id: page_id.clone(),
                input: Box::new(expired),
                base_version: None,
            },
        )
        .await,
    );
    assert_eq!(refused.fields[0].field, "expiresOn");
}

async fn a_recurring_card_is_kept_and_charged_again(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let page_id = create_pay_page(&mut tab, page_input(PaymentKind::Recurring)).await;
    let payer = payer(&app, &page_id, "card").await;
    let paid = payer
        .browser
        .post_form(
            &format!("/pay/{page_id}"),
            &card_form(&payer, "5555555555554444"),
        )
        .await;
    assert_eq!(paid.status(), 303);
    let cards = match tab
        .query(
            "cards",
            Query::ListCards {
                customer_id: None,
                cursor: None,
                limit: None,
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::CardPage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    };
    assert_eq!(cards.len(), 1);
    let card = &cards[0];
    assert_eq!(
        (
            card.brand,
            card.last_four.as_str(),
            card.expiry_month,
            card.expiry_year
        ),
        (CardBrand::Mastercard, "4444", 12, 2029)
    );
    assert_eq!(card.customer_name, "Lerato Dlamini");

    // A card kept after 3-D Secure: the stored transaction names the customer
    // the approval made, as the order does.
    let earlier: Vec<String> = orders(&mut tab, &page_id)
        .await
        .into_iter()
        .map(|o| o.id)
        .collect();
    let challenged = self::payer(&app, &page_id, "card").await;
    let step = challenged
        .browser
        .post_form(
            &format!("/pay/{page_id}"),
            &card_form(&challenged, "4000000000003220"),
        )
        .await;
    let location = step.headers()["location"].to_str().unwrap().to_string();
    let csrf = hidden(&follow(&challenged.browser, step).await, "csrfToken");
    let approved = challenged
        .browser
        .post_form(
            &location,
            &[("csrfToken", csrf.as_str()), ("answer", "approve")],
        )
        .await;
    assert!(
        follow(&challenged.browser, approved)
            .await
            .contains("Payment successful")
    );
    let approved_order = orders(&mut tab, &page_id)
        .await
        .into_iter()
        .find(|o| !earlier.contains(&o.id))
        .expect("the order paid after 3-D Secure");
    assert_eq!(approved_order.status, OrderStatus::Paid);
    let transaction = match tab
        .query(
            "transaction",
            Query::GetTransaction {
                transaction_id: approved_order.transaction_id.clone().unwrap_or_default(),
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Transaction { transaction }),
            ..
        } => transaction,
        other => panic!("{other:?}"),
    };
    assert!(approved_order.customer_id.is_some());
    assert_eq!(transaction.customer_id, approved_order.customer_id);

    let order_id = committed_id(
        tab.command(
            "charge",
            Command::ChargeCard {
                card_id: card.id.clone(),
                amount_cents: 15_000,
                reference: "YOGA-APR".into(),
            },
        )
        .await,
    );
    let order = match tab.query("order", Query::GetOrder { order_id }).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Order { order }),
            ..
        } => order,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        (order.status, order.customer_id.as_deref()),
        (OrderStatus::Paid, Some(card.customer_id.as_str()))
    );
    tab.command(
        "remove",
        Command::RemoveCard {
            card_id: card.id.clone(),
        },
    )
    .await;
    let gone = error_of(
        tab.command(
            "charge2",
            Command::ChargeCard {
                card_id: card.id.clone(),
                amount_cents: 100,
                reference: "X".into(),
            },
        )
        .await,
    );
    assert_eq!(gone.code, ErrorCode::NotFound);
    // Another merchant sees none of it.
    let other = app.merchant("other@example.co.za").await;
    let mut stranger = other.open(Mode::Test).await;
    assert!(orders(&mut stranger, &page_id).await.is_empty());
    let refused = error_of(stranger.query("page", Query::GetPayPage { page_id }).await);
    assert_eq!(refused.code, ErrorCode::NotFound);
}

on_both_databases!(
    the_page_renders_small_in_both_languages,
    a_card_payment_shows_up_live_and_never_echoes_the_number,
    a_double_submit_charges_once,
    forms_without_the_csrf_token_are_refused,
    three_d_secure_and_pay_by_bank_wait_for_the_payer,
    bad_answers_are_named_and_nothing_is_written,
    a_live_page_refuses_the_test_cards,
    closed_pages_say_so,
    a_recurring_card_is_kept_and_charged_again
);
