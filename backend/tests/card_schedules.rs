//! Cards charged on schedule, through the real app: a recurring card page
//! keeps the card and the scheduler charges it on its dates as the test
//! clock plays out; refused charges are retried (day 0, +3, +7), then the
//! payment pauses, the owners and the payer are mailed, and the payer's
//! no-JavaScript update page takes a new card and resumes it. A merchant
//! sets a schedule on a card on file; reminders go out once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Browser, Database, Socket, TestApp, advance_clock, committed_id};
use protocol::*;

const PAGE_BUDGET_BYTES: usize = 30 * 1024;

fn page_input() -> PayPageInput {
    PayPageInput {
        title: "Yoga membership".into(),
        description: "Classes at the Karoo studio, every month.".into(),
        amount_mode: AmountMode::Fixed,
        amount_cents: Some(15_000),
        min_cents: None,
        max_cents: None,
        kind: PaymentKind::Recurring,
        interval: Some(PageInterval::Monthly),
        methods: vec![PaymentMethod::Card],
        expires_on: None,
        max_uses: None,
        reference: "YOGA-1".into(),
        success_url: None,
        colour: "#1e3a8a".into(),
    }
}

/// The value of the hidden input `name` in a page.
fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + marker.len();
    html[start..].chars().take_while(|c| *c != '"').collect()
}

/// A recurring page whose payer keeps `number` on file, paying in `lang`.
async fn subscribe(
    app: &TestApp,
    tab: &mut Socket,
    number: &str,
    expiry: &str,
    email: &str,
    lang: &str,
) -> String {
    let page_id = committed_id(
        tab.command(
            "page",
            Command::CreatePayPage {
                input: Box::new(page_input()),
            },
        )
        .await,
    );
    let browser = app.browser();
    let html = browser
        .http
        .get(app.url(&format!("/pay/{page_id}?method=card&lang={lang}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let paid = browser
        .post_form(
            &format!("/pay/{page_id}"),
            &[
                ("csrfToken", hidden(&html, "csrfToken").as_str()),
                ("attempt", hidden(&html, "attempt").as_str()),
                ("method", "card"),
                ("name", "Lerato Dlamini"),
                ("email", email),
                ("cardNumber", number),
                ("expiry", expiry),
                ("cvv", "123"),
            ],
        )
        .await;
    assert_eq!(paid.status(), 303, "the checkout is approved");
    page_id
}

async fn the_card(tab: &mut Socket) -> Card {
    match tab
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
            ok: Some(ReplyBody::CardPage { mut items, .. }),
            ..
        } => {
            assert_eq!(items.len(), 1);
            items.remove(0)
        }
        other => panic!("{other:?}"),
    }
}

fn schedule(card: &Card) -> CardSchedule {
    card.schedule.clone().expect("the card is on a schedule")
}

/// The page's orders, oldest first.
async fn orders(tab: &mut Socket, page_id: &str) -> Vec<Order> {
    match tab
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
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::OrderPage { mut items, .. }),
            ..
        } => {
            items.sort_by_key(|o| o.created_at);
            items
        }
        other => panic!("{other:?}"),
    }
}

/// Waits for `count` deltas that carry an order, and checks each carries
/// exactly one: every scheduled charge is an event of its own.
async fn charges_seen_live(live: &mut Socket, count: usize) -> Vec<Order> {
    let mut seen = Vec::new();
    while seen.len() < count {
        let frame = live
            .next_matching(|f| match f {
                ServerFrame::Delta { changes, .. } => changes
                    .iter()
                    .any(|c| matches!(c, Change::OrderUpserted { .. })),
                _ => false,
            })
            .await;
        let ServerFrame::Delta { changes, .. } = frame else {
            unreachable!()
        };
        let orders: Vec<Order> = changes
            .into_iter()
            .filter_map(|c| match c {
                Change::OrderUpserted { order } => Some(*order),
                _ => None,
            })
            .collect();
        assert_eq!(orders.len(), 1, "one charge per event");
        seen.extend(orders);
    }
    seen
}

async fn a_scheduled_charge_fails_twice_then_succeeds(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let payer = "lerato@example.co.za";
    // Approved at the checkout; on file, refused for funds twice, then paid.
    let page_id = subscribe(&app, &mut tab, "4000000000000077", "12/29", payer, "en").await;
    let card = the_card(&mut tab).await;
    assert_eq!(
        (
            schedule(&card).status,
            schedule(&card).next_charge_date.as_str()
        ),
        (CardScheduleStatus::Active, "2026-04-02")
    );
    let mut live = owner.open(Mode::Test).await;

    advance_clock(&mut tab, &mut watcher, ClockStep::Month, "2026-04-02").await;
    let first = schedule(&the_card(&mut tab).await);
    assert_eq!(
        (first.failed_tries, first.retry_date.as_deref()),
        (1, Some("2026-04-05"))
    );
    advance_clock(&mut tab, &mut watcher, ClockStep::Week, "2026-04-09").await;

    let charged = charges_seen_live(&mut live, 3).await;
    assert_eq!(
        charged
            .iter()
            .map(|o| (o.status, o.failure))
            .collect::<Vec<_>>(),
        vec![
            (OrderStatus::Failed, Some(PayFailure::InsufficientFunds)),
            (OrderStatus::Failed, Some(PayFailure::InsufficientFunds)),
            (OrderStatus::Paid, None),
        ]
    );
    let all = orders(&mut tab, &page_id).await;
    assert_eq!(all.len(), 4, "the checkout and three tries");
    let mut attempts = Vec::new();
    for order in &all[1..] {
        assert_eq!(
            order.customer_id.as_deref(),
            Some(card.customer_id.as_str())
        );
        let transaction = match tab
            .query(
                "txn",
                Query::GetTransaction {
                    transaction_id: order.transaction_id.clone().unwrap(),
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
        attempts.push((transaction.attempt, transaction.action_date));
    }
    assert_eq!(
        attempts,
        vec![
            (1, "2026-04-02".to_string()),
            (2, "2026-04-05".to_string()),
            (3, "2026-04-09".to_string()),
        ]
    );
    let after = schedule(&the_card(&mut tab).await);
    assert_eq!(
        (
            after.status,
            after.failed_tries,
            after.retry_date,
            after.next_charge_date.as_str()
        ),
        (CardScheduleStatus::Active, 0, None, "2026-05-02")
    );
    // The scheduler wrote them: the last events of the stream are its own.
    let causes = app.event_causes("owner@karoo.test", Mode::Test).await;
    assert_eq!(
        causes.last().map(|c| c.actor_kind.as_str()),
        Some("scheduler")
    );

    // The payer was never told of a pause.
    assert!(
        app.mails_containing(payer, "could not charge", 0)
            .await
            .is_empty()
    );
}

async fn a_scheduled_charge_that_exhausts_its_retries_pauses_until_a_new_card(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let payer = "sipho@example.co.za";
    // Approved at the checkout (in Afrikaans); every charge on file declined.
    let page_id = subscribe(&app, &mut tab, "4000000000000341", "12/29", payer, "afr").await;
    let mut live = owner.open(Mode::Test).await;
    advance_clock(&mut tab, &mut watcher, ClockStep::Month, "2026-04-02").await;
    advance_clock(&mut tab, &mut watcher, ClockStep::Week, "2026-04-09").await;

    // The merchant's open tab saw the payment pause.
    let paused = live
        .next_matching(|f| match f {
            ServerFrame::Delta { changes, .. } => changes.iter().any(|c| {
                matches!(c, Change::CardUpserted { card }
                    if card.schedule.as_ref().is_some_and(|s| s.status == CardScheduleStatus::Paused))
            }),
            _ => false,
        })
        .await;
    assert!(matches!(paused, ServerFrame::Delta { .. }));
    let card = the_card(&mut tab).await;
    let stopped = schedule(&card);
    assert_eq!(
        (stopped.status, stopped.pause_reason, stopped.failed_tries),
        (
            CardScheduleStatus::Paused,
            Some(CardPauseReason::RetriesExhausted),
            3
        )
    );
    let tries: Vec<OrderStatus> = orders(&mut tab, &page_id)
        .await
        .iter()
        .map(|o| o.status)
        .collect();
    assert_eq!(
        tries,
        vec![
            OrderStatus::Paid,
            OrderStatus::Failed,
            OrderStatus::Failed,
            OrderStatus::Failed
        ],
        "never more than three tries"
    );

    // The owner is told; the payer is mailed in the language they paid in.
    let told = app
        .mails_containing("owner@karoo.test", "is paused", 1)
        .await;
    assert!(told[0].contains("refused it 3 times"), "{}", told[0]);
    let mailed = app
        .mails_containing(payer, "kon nie jou kaart debiteer nie", 1)
        .await;
    assert_eq!(mailed.len(), 1);
    let link = app.link_in_mail(payer, "/card/").await;
    let path = link.strip_prefix(&app.origin()).unwrap().to_string();
    let token = path.strip_prefix("/card/").unwrap().to_string();

    // The link's secret is not stored, only its hash.
    let store = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let (plain,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM card_update_links WHERE token_hash = $1")
            .bind(&token)
            .fetch_one(&store.pool)
            .await
            .unwrap();
    assert_eq!(plain, 0);

    // The page: small, no script, in the payer's language.
    let browser = app.browser();
    let page = browser.http.get(&link).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("default-src 'none'"), "{csp}");
    let html = page.text().await.unwrap();
    assert!(html.len() <= PAGE_BUDGET_BYTES, "{} bytes", html.len());
    assert!(!html.contains("<script"));
    assert!(html.contains("Werk jou kaart by"), "{html}");
    assert!(html.contains("gestaak"));
    let csrf = hidden(&html, "csrfToken");
    let action = format!("{path}?lang=afr");
    let english = app
        .browser()
        .http
        .get(format!("{link}?lang=en"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(english.contains("Update your card"));

    let form = |number: &'static str, csrf: &str| -> Vec<(&'static str, String)> {
        vec![
            ("csrfToken", csrf.to_string()),
            ("cardNumber", number.to_string()),
            ("expiry", "12/30".to_string()),
            ("cvv", "123".to_string()),
        ]
    };
    let post = |browser: &Browser, fields: Vec<(&'static str, String)>| {
        let url = format!("{}{action}", browser.base);
        let request = browser.http.post(url).form(&fields);
        async move { request.send().await.unwrap() }
    };
    // Without this browser's CSRF token: refused, nothing read.
    let forged = post(&app.browser(), form("4242424242424242", "forged")).await;
    assert_eq!(forged.status(), 403);
    // A mistyped number is named beside its field and never echoed.
    let wrong = post(&browser, form("4242424242424241", &csrf)).await;
    assert_eq!(wrong.status(), 422);
    let wrong = wrong.text().await.unwrap();
    assert!(wrong.contains("card-number-error"));
    assert!(!wrong.contains("4242424242424241"));
    // A card the bank refuses: said so, and the link still works.
    let refused = post(&browser, form("4000000000000002", &csrf)).await;
    assert_eq!(refused.status(), 402);
    assert!(refused.text().await.unwrap().contains("geweier"));
    let saved = post(&browser, form("4242424242424242", &csrf)).await;
    assert_eq!(saved.status(), 303);
    let done = browser
        .http
        .get(format!(
            "{}{}",
            browser.base,
            saved.headers()["location"].to_str().unwrap()
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), 200);
    assert!(done.text().await.unwrap().contains("Jou kaart is gestoor"));
    // Single use: a second submit or visit finds the link gone.
    let again = post(&browser, form("4242424242424242", &csrf)).await;
    assert_eq!(again.status(), 410);
    assert_eq!(browser.http.get(&link).send().await.unwrap().status(), 410);

    let updated = the_card(&mut tab).await;
    let resumed = schedule(&updated);
    assert_eq!(
        (
            updated.last_four.as_str(),
            updated.expiry_year,
            resumed.status,
            resumed.failed_tries,
            resumed.pause_reason
        ),
        ("4242", 2030, CardScheduleStatus::Active, 0, None)
    );
    assert_eq!(updated.id, card.id, "the same card on file, replaced");
    // The payment continues: the charge still owed is made on the next day.
    advance_clock(&mut tab, &mut watcher, ClockStep::Day, "2026-04-10").await;
    let all = orders(&mut tab, &page_id).await;
    assert_eq!(all.len(), 5);
    assert_eq!(all[4].status, OrderStatus::Paid);
    assert_eq!(
        schedule(&the_card(&mut tab).await).next_charge_date,
        "2026-05-02"
    );
    let causes = app.event_causes("owner@karoo.test", Mode::Test).await;
    assert!(
        causes
            .iter()
            .any(|c| c.actor_kind == "payer" && c.actor_id.as_deref() == Some(card.id.as_str())),
        "the payer's new card is an event of the stream"
    );
}

async fn reminders_go_out_once(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let payer = "thandi@example.co.za";
    // A card that expires at the end of April, which the merchant sets on a
    // recurring payment from Monday 9 March (then 9 April, 9 May).
    subscribe(&app, &mut tab, "4242424242424242", "04/26", payer, "en").await;
    let card = the_card(&mut tab).await;
    let set = tab
        .command(
            "schedule",
            Command::ScheduleCard {
                card_id: card.id.clone(),
                amount_cents: 20_000,
                interval: PageInterval::Monthly,
                reference: "YOGA-PLUS".into(),
                start_date: "2026-03-09".into(),
            },
        )
        .await;
    assert_eq!(committed_id(set), card.id);
    let in_the_past = tab
        .command(
            "schedule-past",
            Command::ScheduleCard {
                card_id: card.id.clone(),
                amount_cents: 20_000,
                interval: PageInterval::Monthly,
                reference: "YOGA-PLUS".into(),
                start_date: "2026-03-01".into(),
            },
        )
        .await;
    assert!(
        format!("{in_the_past:?}").contains("DateInPast"),
        "{in_the_past:?}"
    );

    // Three business days before the first charge (Wednesday 4 March).
    advance_clock(&mut tab, &mut watcher, ClockStep::Day, "2026-03-03").await;
    assert!(
        app.mails_containing(payer, "Your first payment to", 0)
            .await
            .is_empty()
    );
    advance_clock(&mut tab, &mut watcher, ClockStep::Day, "2026-03-04").await;
    let first = app
        .mails_containing(payer, "Your first payment to", 1)
        .await;
    assert_eq!(first.len(), 1);
    assert!(first[0].contains("R\u{a0}200,00") && first[0].contains("9 March 2026"));
    // Charged on the 9th; the next charge (9 April) is in the card's last
    // month, so the payer hears the card expires, with a link to replace it.
    advance_clock(&mut tab, &mut watcher, ClockStep::Week, "2026-03-11").await;
    advance_clock(&mut tab, &mut watcher, ClockStep::Week, "2026-03-18").await;
    let expiring = app
        .mails_containing(payer, "expires at the end of 04/2026", 1)
        .await;
    assert_eq!(expiring.len(), 1, "the expiry reminder is sent once");
    assert!(expiring[0].contains(&format!("{}/card/", app.origin())));
    assert_eq!(
        app.mails_containing(payer, "Your first payment to", 1)
            .await
            .len(),
        1,
        "the first charge's reminder is sent once"
    );
    assert_eq!(
        schedule(&the_card(&mut tab).await).next_charge_date,
        "2026-04-09"
    );
}

on_both_databases!(
    a_scheduled_charge_fails_twice_then_succeeds,
    a_scheduled_charge_that_exhausts_its_retries_pauses_until_a_new_card,
    reminders_go_out_once
);
