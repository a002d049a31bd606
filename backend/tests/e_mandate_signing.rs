//! The payer signing a mandate on the payer's pages, over real HTTP with
//! the merchant's tabs on the real socket: the steps with their checks, the
//! simulated bank's magic numbers (approve, decline, no reply), the one
//! event that makes the customer, bank account, mandate and payment, a
//! double submit, an expired link, and a recurring pay page's DebiCheck.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::e_mandate_support::*;

use common::{Database, TestApp, committed_id};
use protocol::*;

async fn approved_makes_everything_in_one_event(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    request(&mut tab, "lerato@example.co.za", PaymentMethod::Debicheck).await;
    let payer = open_link(&app, "lerato@example.co.za").await;

    // Consenting asks the bank; the page waits and refreshes itself.
    let (status, waiting) = payer.sign("4100000001").await;
    assert_eq!(status, 200, "{waiting}");
    assert!(waiting.contains("http-equiv=\"refresh\""), "{waiting}");
    assert!(waiting.contains("Open your banking app"), "{waiting}");
    assert!(waiting.contains("0825550101"), "{waiting}");
    assert!(waiting.len() <= 30 * 1024);
    assert!(mandates(&mut tab).await.is_empty());

    let done = payer.answer_bank("approve").await;
    assert!(done.contains("Your debit order is set up"), "{done}");
    assert!(done.contains("lerato.payer@example.co.za"), "{done}");

    // One delta: the customer, bank account, mandate (active), the
    // recurring payment (running) and the request completed with it.
    let changes = settled(&mut watcher, EMandateState::Completed).await;
    let mandate = changes
        .iter()
        .rev()
        .find_map(|c| match c {
            Change::MandateUpserted { mandate } => Some(mandate.clone()),
            _ => None,
        })
        .expect("a mandate in the delta");
    assert_eq!(mandate.status, MandateStatus::Active);
    assert_eq!(mandate.method, PaymentMethod::Debicheck);
    assert!(changes.iter().any(
        |c| matches!(c, Change::CustomerUpserted { customer } if customer.id_number == ID_NUMBER)
    ));
    assert!(
        changes
            .iter()
            .any(|c| matches!(c, Change::BankAccountAdded { .. }))
    );
    assert!(
        changes
            .iter()
            .any(|c| matches!(c, Change::PaymentUpserted { payment }
        if payment.status == PaymentStatus::Running && payment.mandate_id == mandate.id))
    );
    let request = requests(&mut tab).await.remove(0);
    assert_eq!(request.state, EMandateState::Completed);
    assert_eq!(request.mandate_id.as_deref(), Some(mandate.id.as_str()));
    assert_eq!(mandates(&mut tab).await.len(), 1);

    // The payer's confirmation, with the terms.
    let mail = app
        .mails_containing("lerato.payer@example.co.za", "is set up", 1)
        .await
        .remove(0);
    assert!(mail.contains("R\u{a0}500,00 every month"), "{mail}");
    assert!(
        mail.contains("1 April 2026") && mail.contains("R\u{a0}600,00"),
        "{mail}"
    );
    assert!(mail.contains(&mandate.id), "{mail}");

    // Every write of the signing was the payer's.
    let causes = app.event_causes("owner@example.co.za", Mode::Test).await;
    let last = causes.last().unwrap();
    assert_eq!(last.actor_kind, "payer");
    assert_eq!(last.actor_id.as_deref(), Some(request.id.as_str()));

    // The link now says it is done.
    let again = payer.browser.http.get(&payer.link).send().await.unwrap();
    assert!(
        again
            .text()
            .await
            .unwrap()
            .contains("Your debit order is set up")
    );
}

async fn declined_and_unanswered_make_nothing(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    for (email, account, state, words) in [
        (
            "decline@example.co.za",
            "4100000002",
            EMandateState::Declined,
            "Your bank declined the mandate",
        ),
        (
            "silent@example.co.za",
            "4100000003",
            EMandateState::NoReply,
            "Your bank got no answer in time",
        ),
    ] {
        request(&mut tab, email, PaymentMethod::Debicheck).await;
        let payer = open_link(&app, email).await;
        let (status, waiting) = payer.sign(account).await;
        assert_eq!(status, 200, "{waiting}");
        assert!(waiting.contains("http-equiv=\"refresh\""));
        // The payer approves; the bank's magic number has the last word.
        let outcome = payer.answer_bank("approve").await;
        assert!(outcome.contains(words), "{outcome}");
        let changes = settled(&mut watcher, state).await;
        assert!(
            !changes
                .iter()
                .any(|c| matches!(c, Change::MandateUpserted { .. }))
        );
    }
    assert!(mandates(&mut tab).await.is_empty());
    // The payer refusing in the banking app is a decline too.
    request(&mut tab, "refuse@example.co.za", PaymentMethod::Debicheck).await;
    let payer = open_link(&app, "refuse@example.co.za").await;
    payer.sign("4100000001").await;
    let outcome = payer.answer_bank("refuse").await;
    assert!(
        outcome.contains("Your bank declined the mandate"),
        "{outcome}"
    );
    assert!(mandates(&mut tab).await.is_empty());
}

async fn a_business_is_refused_debicheck_and_answers_are_kept(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    request(&mut tab, "lerato@example.co.za", PaymentMethod::Debicheck).await;
    let payer = open_link(&app, "lerato@example.co.za").await;

    let (status, html) = payer
        .post("details", &details("business", "2001/123456/07"))
        .await;
    assert_eq!(status, 422, "{html}");
    assert!(html.contains("DebiCheck is for individuals only"), "{html}");
    assert!(html.contains("Registered Mandate or pay by EFT"), "{html}");

    // A wrong ID number: the message beside its field, every answer kept.
    let (status, html) = payer
        .post("details", &details("person", "8001015009088"))
        .await;
    assert_eq!(status, 422, "{html}");
    assert!(html.contains("id=\"idNumber-error\""), "{html}");
    assert!(html.contains("Enter a valid 13-digit South African ID number."));
    assert!(html.contains("value=\"Lerato Dlamini\""), "{html}");
    assert!(html.contains("value=\"8001015009088\""), "{html}");
    assert!(html.contains("aria-invalid=\"true\""));

    // A branch code that is not the bank's, on the bank step.
    let mut answers = details("person", ID_NUMBER);
    answers.extend([
        ("bank", "fnb"),
        ("branchCode", "123456"),
        ("accountType", "current"),
        ("accountNumber", "4100000001"),
    ]);
    let (status, html) = payer.post("bank", &answers).await;
    assert_eq!(status, 422, "{html}");
    assert!(html.contains("id=\"branchCode-error\""), "{html}");
    assert!(html.contains("value=\"4100000001\""), "{html}");

    // Consent not ticked: the consent step again.
    answers[6] = ("branchCode", "250655");
    let (status, html) = payer.post("consent", &answers).await;
    assert_eq!(status, 422, "{html}");
    assert!(html.contains("id=\"consent-error\""), "{html}");

    // A business may sign a Registered Mandate: no bank step.
    request(
        &mut tab,
        "firm@example.co.za",
        PaymentMethod::RegisteredMandate,
    )
    .await;
    let firm = open_link(&app, "firm@example.co.za").await;
    let mut answers = details("business", "2001/123456/07");
    answers.extend(bank("62001234567"));
    answers.push(("consent", "yes"));
    let (status, html) = firm.post("consent", &answers).await;
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("Your debit order is set up"), "{html}");
    let made = mandates(&mut tab).await;
    assert_eq!(made.len(), 1);
    assert_eq!(made[0].method, PaymentMethod::RegisteredMandate);
    assert_eq!(made[0].status, MandateStatus::Active);
}

async fn a_double_submit_makes_one_mandate(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    request(&mut tab, "lerato@example.co.za", PaymentMethod::Debicheck).await;
    let payer = open_link(&app, "lerato@example.co.za").await;
    // A second tab of the same payer, with its own form.
    let other = open_link(&app, "lerato@example.co.za").await;
    let mut answers = details("person", ID_NUMBER);
    answers.extend(bank("4100000001"));
    answers.push(("consent", "yes"));
    let (a, b, c) = tokio::join!(
        payer.post("consent", &answers),
        payer.post("consent", &answers),
        other.post("consent", &answers),
    );
    for (status, html) in [a, b, c] {
        assert_eq!(status, 200, "{html}");
        assert!(html.contains("http-equiv=\"refresh\""), "{html}");
    }
    let (x, y) = tokio::join!(payer.answer_bank("approve"), other.answer_bank("approve"));
    assert!(x.contains("Your debit order is set up"), "{x}");
    assert!(y.contains("Your debit order is set up"), "{y}");
    // Posting the consent again after it is done changes nothing.
    let (_, later) = payer.post("consent", &answers).await;
    assert!(later.contains("Your debit order is set up"), "{later}");
    assert_eq!(mandates(&mut tab).await.len(), 1);
    app.mails_containing("lerato.payer@example.co.za", "is set up", 1)
        .await;
    assert_eq!(app.mails_to("lerato.payer@example.co.za"), 1);
}

async fn an_expired_request_is_refused(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    request(&mut tab, "lerato@example.co.za", PaymentMethod::Debicheck).await;
    let payer = open_link(&app, "lerato@example.co.za").await;
    // The payer leaves the form open for a month: the link's last day passes.
    let moved = tab
        .command(
            "clock",
            Command::AdvanceTestClock {
                step: ClockStep::Month,
            },
        )
        .await;
    assert!(
        matches!(moved, ServerFrame::Reply { ok: Some(_), .. }),
        "{moved:?}"
    );
    let mut answers = details("person", ID_NUMBER);
    answers.extend(bank("4100000001"));
    answers.push(("consent", "yes"));
    let (status, html) = payer.post("consent", &answers).await;
    assert_eq!(status, 410, "{html}");
    assert!(html.contains("This link no longer works"), "{html}");
    assert!(mandates(&mut tab).await.is_empty());
    assert_eq!(requests(&mut tab).await[0].state, EMandateState::Expired);
}

async fn a_recurring_pay_page_offers_debicheck(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let input = PayPageInput {
        title: "Gym membership".into(),
        description: String::new(),
        amount_mode: AmountMode::Fixed,
        amount_cents: Some(35_000),
        min_cents: None,
        max_cents: None,
        kind: PaymentKind::Recurring,
        interval: Some(PageInterval::Monthly),
        methods: vec![PaymentMethod::Card, PaymentMethod::Debicheck],
        expires_on: None,
        max_uses: None,
        reference: "GYM-1".into(),
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
    let offer = browser
        .http
        .get(app.url(&format!("/pay/{page_id}?method=debicheck")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(offer.contains("Sign a debit order"), "{offer}");
    let csrf = hidden(&offer, "csrfToken");
    let started = browser
        .http
        .post(app.url(&format!("/pay/{page_id}/debicheck")))
        .form(&[("csrfToken", csrf.as_str())])
        .send()
        .await
        .unwrap();
    let (status, link, html) = land(&app, &browser, started).await;
    assert_eq!(status, 200, "{html}");
    assert!(link.starts_with("/mandate/"), "{link}");
    let payer = Payer {
        csrf: hidden(&html, "csrfToken"),
        key: hidden(&html, "key"),
        link: app.url(&link),
        app: &app,
        terms: &["R\u{a0}350,00", "every month", "4 March 2026"],
        browser,
    };
    let (status, waiting) = payer.sign("4100000001").await;
    assert_eq!(status, 200, "{waiting}");
    let done = payer.answer_bank("approve").await;
    assert!(done.contains("Your debit order is set up"), "{done}");
    let frame = watcher
        .next_matching(|f| {
            matches!(f, ServerFrame::Delta { changes, .. }
                if changes.iter().any(|c| matches!(c, Change::PaymentUpserted { payment } if payment.amount_cents == 35_000)))
        })
        .await;
    assert!(matches!(frame, ServerFrame::Delta { .. }));
    let made = mandates(&mut tab).await;
    assert_eq!(made.len(), 1);
    assert_eq!(made[0].status, MandateStatus::Active);
}

/// The merchant lets the payer change the amount and first date: the terms
/// step offers both, checks them by the merchant form's rules with the
/// problem beside each field, and the mandate, payment and mail carry what
/// the payer chose.
async fn the_payer_changes_what_the_merchant_allows(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let mut input = request_input(
        "lerato@example.co.za",
        PaymentMethod::Debicheck,
        Language::En,
    );
    input.payer_may_change = vec![EMandateChangeable::Amount, EMandateChangeable::StartDate];
    committed_id(
        tab.command(
            "req",
            Command::RequestEMandate {
                input: Box::new(input),
            },
        )
        .await,
    );
    let payer = open_link(&app, "lerato@example.co.za").await;
    let mut answers = details("person", ID_NUMBER);
    answers.extend(bank("4100000001"));
    let (_, terms) = payer.post("bank", &answers).await;
    assert!(
        terms.contains("name=\"amount\" value=\"500.00\""),
        "{terms}"
    );
    assert!(
        terms.contains("name=\"startDate\" value=\"2026-04-01\""),
        "{terms}"
    );
    // Above the maximum, and a Saturday: both refused beside their fields.
    let mut wrong = answers.clone();
    wrong.extend([
        ("amount", "700"),
        ("startDate", "2026-04-04"),
        ("consent", "yes"),
    ]);
    let (status, html) = payer.post("consent", &wrong).await;
    assert_eq!(status, 422, "{html}");
    assert!(html.contains("id=\"amount-error\""), "{html}");
    assert!(
        html.contains("at most the maximum collection amount"),
        "{html}"
    );
    assert!(html.contains("id=\"startDate-error\""), "{html}");
    assert!(html.contains("Choose a business day"), "{html}");
    assert!(html.contains("name=\"amount\" value=\"700\""), "{html}");
    // In the past, by the merchant form's own rule.
    let mut past = answers.clone();
    past.extend([
        ("amount", "450"),
        ("startDate", "2026-03-02"),
        ("consent", "yes"),
    ]);
    let (status, html) = payer.post("consent", &past).await;
    assert_eq!(status, 422, "{html}");
    assert!(html.contains("id=\"startDate-error\""), "{html}");
    answers.extend([
        ("amount", "450.00"),
        ("startDate", "2026-04-07"),
        ("consent", "yes"),
    ]);
    let (status, waiting) = payer.post("consent", &answers).await;
    assert_eq!(status, 200, "{waiting}");
    let done = payer.answer_bank("approve").await;
    assert!(done.contains("Your debit order is set up"), "{done}");
    let changes = settled(&mut watcher, EMandateState::Completed).await;
    let payment = changes
        .iter()
        .find_map(|c| match c {
            Change::PaymentUpserted { payment } => Some(payment.clone()),
            _ => None,
        })
        .expect("a payment in the delta");
    assert_eq!(payment.amount_cents, 45_000);
    assert_eq!(payment.start_date.as_deref(), Some("2026-04-07"));
    let made = mandates(&mut tab).await;
    assert_eq!(made[0].maximum_collection_cents, Some(60_000));
    let mail = app
        .mails_containing("lerato.payer@example.co.za", "is set up", 1)
        .await
        .remove(0);
    assert!(mail.contains("R\u{a0}450,00 every month"), "{mail}");
    assert!(mail.contains("7 April 2026"), "{mail}");
}

/// Without the merchant's leave the fields are not offered, and a post
/// that changes the terms anyway is refused without a write.
async fn a_change_not_allowed_is_refused(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    request(&mut tab, "lerato@example.co.za", PaymentMethod::Debicheck).await;
    let payer = open_link(&app, "lerato@example.co.za").await;
    let mut answers = details("person", ID_NUMBER);
    answers.extend(bank("4100000001"));
    let (_, terms) = payer.post("bank", &answers).await;
    assert!(!terms.contains("name=\"amount\""), "{terms}");
    assert!(!terms.contains("name=\"startDate\""), "{terms}");
    answers.extend([("amount", "100"), ("consent", "yes")]);
    let (status, html) = payer.post("consent", &answers).await;
    assert_eq!(status, 403, "{html}");
    let before = app
        .event_causes("owner@example.co.za", Mode::Test)
        .await
        .len();
    answers.pop();
    answers.pop();
    answers.extend([("startDate", "2026-05-05"), ("consent", "yes")]);
    let (status, _) = payer.post("consent", &answers).await;
    assert_eq!(status, 403);
    let after = app
        .event_causes("owner@example.co.za", Mode::Test)
        .await
        .len();
    assert_eq!(before, after);
    assert_eq!(requests(&mut tab).await[0].state, EMandateState::Opened);
}

/// A DebiCheck signing nobody answers is closed by the scheduler once its
/// approval window has passed: the merchant's tab hears "no reply" without
/// the payer's page being loaded again, in one event the scheduler caused.
async fn the_scheduler_closes_an_unanswered_signing(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let mut settings = match tab
        .query("settings", Query::GetPaymentMethodSettings {})
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::PaymentMethodSettings { settings }),
            ..
        } => *settings,
        other => panic!("{other:?}"),
    };
    // A delayed approval: the bank answers by the end of the day.
    settings.debicheck_approval_window = ApprovalWindow::Tt1Delayed;
    let saved = tab
        .command(
            "settings",
            Command::UpdatePaymentMethodSettings {
                settings,
                base_version: None,
            },
        )
        .await;
    assert!(
        matches!(saved, ServerFrame::Reply { ok: Some(_), .. }),
        "{saved:?}"
    );
    let id = request(&mut tab, "silent@example.co.za", PaymentMethod::Debicheck).await;
    let mut payer = open_link(&app, "silent@example.co.za").await;
    payer.terms = &["R\u{a0}500,00", "every month", "1 April 2026"];
    let (status, waiting) = payer.sign("4100000003").await;
    assert_eq!(status, 200, "{waiting}");
    assert_eq!(requests(&mut tab).await[0].state, EMandateState::Opened);
    // The day passes on the test clock; nobody opens the payer's page.
    let moved = tab
        .command(
            "clock",
            Command::AdvanceTestClock {
                step: ClockStep::Day,
            },
        )
        .await;
    assert!(
        matches!(moved, ServerFrame::Reply { ok: Some(_), .. }),
        "{moved:?}"
    );
    let changes = settled(&mut watcher, EMandateState::NoReply).await;
    assert!(
        !changes
            .iter()
            .any(|c| matches!(c, Change::MandateUpserted { .. }))
    );
    let causes = app.event_causes("owner@example.co.za", Mode::Test).await;
    let closing: Vec<_> = causes
        .iter()
        .filter(|c| c.actor_kind == "scheduler")
        .collect();
    assert!(!closing.is_empty());
    assert_eq!(requests(&mut tab).await[0].state, EMandateState::NoReply);
    assert_eq!(requests(&mut tab).await[0].id, id);
    // The payer's page says so; loading it writes nothing more.
    let count = causes.len();
    let page = payer.browser.http.get(&payer.link).send().await.unwrap();
    assert!(
        page.text()
            .await
            .unwrap()
            .contains("Your bank got no answer in time")
    );
    let again = app.event_causes("owner@example.co.za", Mode::Test).await;
    assert_eq!(again.len(), count);
}

/// The merchant withdraws a request while its payer is at the bank's step:
/// the bank's approval that follows changes nothing (no mandate, no mail,
/// the request stays cancelled). Raced from the start, whichever of the
/// two commits first wins and the other is refused or changes nothing.
async fn a_cancelled_request_stays_cancelled(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let id = request(&mut tab, "lerato@example.co.za", PaymentMethod::Debicheck).await;
    let payer = open_link(&app, "lerato@example.co.za").await;
    let (status, waiting) = payer.sign("4100000001").await;
    assert_eq!(status, 200, "{waiting}");
    let cancelled = tab
        .command(
            "cancel",
            Command::CancelEMandateRequest {
                request_id: id.clone(),
            },
        )
        .await;
    committed_id(cancelled);
    let after = payer.answer_bank("approve").await;
    assert!(!after.contains("Your debit order is set up"), "{after}");
    assert_eq!(requests(&mut tab).await[0].state, EMandateState::Cancelled);
    assert!(mandates(&mut tab).await.is_empty());
    assert_eq!(app.mails_to("lerato.payer@example.co.za"), 0);

    // Raced: the cancel and the approval sent together.
    let id = request(&mut tab, "thabo@example.co.za", PaymentMethod::Debicheck).await;
    let payer = open_link(&app, "thabo@example.co.za").await;
    let (status, waiting) = payer.sign("4100000001").await;
    assert_eq!(status, 200, "{waiting}");
    let mut other = owner.open(Mode::Test).await;
    let (cancel, approved) = tokio::join!(
        other.command(
            "race",
            Command::CancelEMandateRequest {
                request_id: id.clone()
            }
        ),
        payer.answer_bank("approve"),
    );
    let state = requests(&mut tab)
        .await
        .into_iter()
        .find(|r| r.id == id)
        .unwrap()
        .state;
    let made = mandates(&mut tab).await.len();
    match state {
        EMandateState::Cancelled => {
            assert!(
                matches!(
                    &cancel,
                    ServerFrame::Reply {
                        ok: Some(ReplyBody::Committed { .. }),
                        ..
                    }
                ),
                "{cancel:?}"
            );
            assert!(
                !approved.contains("Your debit order is set up"),
                "{approved}"
            );
            assert_eq!(made, 0);
        }
        EMandateState::Completed => {
            assert!(
                matches!(&cancel, ServerFrame::Reply { error: Some(e), .. } if e.code == ErrorCode::EMandateClosed),
                "{cancel:?}"
            );
            assert!(
                approved.contains("Your debit order is set up"),
                "{approved}"
            );
            assert_eq!(made, 1);
        }
        other => panic!("the race left the request {other:?}"),
    }
}

on_both_databases!(
    approved_makes_everything_in_one_event,
    declined_and_unanswered_make_nothing,
    a_business_is_refused_debicheck_and_answers_are_kept,
    a_double_submit_makes_one_mandate,
    an_expired_request_is_refused,
    a_recurring_pay_page_offers_debicheck,
    the_payer_changes_what_the_merchant_allows,
    a_change_not_allowed_is_refused,
    the_scheduler_closes_an_unanswered_signing,
    a_cancelled_request_stays_cancelled,
);
