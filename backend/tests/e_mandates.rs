//! Electronic mandate requests over the real socket and the real outbox:
//! requesting one mails the payer a link in their language, the merchant's
//! tabs see it live, and resend, cancel and expiry behave as the list says.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use crate::e_mandate_support::requests;
use common::{Database, Socket, TestApp, committed_id, customer_input, error_of};
use protocol::*;

fn request_input(email: &str, language: Language) -> EMandateRequestInput {
    EMandateRequestInput {
        customer_id: None,
        name: "Lerato Dlamini".into(),
        email: email.into(),
        cellphone: "082 555 0101".into(),
        language,
        method: PaymentMethod::Debicheck,
        amount_cents: 50_000,
        max_cents: Some(60_000),
        interval: Interval::Monthly,
        // The calendar is pinned to Monday 2 March 2026.
        start_date: "2026-04-01".into(),
        payer_may_change: vec![EMandateChangeable::StartDate],
    }
}

async fn request(socket: &mut Socket, id: &str, input: EMandateRequestInput) -> ServerFrame {
    socket
        .command(
            id,
            Command::RequestEMandate {
                input: Box::new(input),
            },
        )
        .await
}

async fn a_request_is_mailed_in_the_payers_language_and_seen_live(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;

    let id = committed_id(
        request(
            &mut tab,
            "req",
            request_input("lerato@example.co.za", Language::Afr),
        )
        .await,
    );
    let delta = watcher
        .next_matching(|f| {
            matches!(f, ServerFrame::Delta { changes, .. }
                if changes.iter().any(|c| matches!(c, Change::EMandateRequestUpserted { .. })))
        })
        .await;
    let ServerFrame::Delta { changes, .. } = delta else {
        unreachable!()
    };
    let Some(Change::EMandateRequestUpserted { request: seen }) = changes.into_iter().next() else {
        panic!("no request in the delta");
    };
    assert_eq!(seen.id, id);
    assert_eq!(seen.state, EMandateState::Sent);
    assert_eq!(seen.cellphone, "0825550101");
    assert_eq!(seen.expires_on, "2026-03-16");
    assert!(seen.link.starts_with("/mandate/"), "{}", seen.link);

    // The payer's mail: Afrikaans, the terms, and the whole link.
    let mails = app
        .mails_containing("lerato@example.co.za", &seen.link, 1)
        .await;
    let mail = &mails[0];
    assert!(
        mail.contains("vra jou om 'n debietorder op te stel"),
        "{mail}"
    );
    assert!(mail.contains("R\u{a0}500,00 elke maand"), "{mail}");
    assert!(mail.contains("R\u{a0}600,00"), "{mail}");
    assert!(mail.contains(&app.url(&seen.link)), "{mail}");

    let listed = requests(&mut tab).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0], *seen);

    // An existing customer's own details are used; English this time.
    let customer = committed_id(
        tab.command(
            "cus",
            Command::CreateCustomer {
                input: customer_input("Sipho Nkosi", "sipho@example.co.za"),
            },
        )
        .await,
    );
    let mut input = request_input("", Language::En);
    input.customer_id = Some(customer.clone());
    input.name = String::new();
    input.method = PaymentMethod::RegisteredMandate;
    input.max_cents = None;
    committed_id(request(&mut tab, "req2", input).await);
    let mails = app
        .mails_containing("sipho@example.co.za", "/mandate/", 1)
        .await;
    assert!(
        mails[0].contains("asks you to set up a debit order")
            && mails[0].contains("R\u{a0}500,00 every month"),
        "{}",
        mails[0]
    );
    let listed = requests(&mut tab).await;
    assert_eq!(listed[0].customer_id.as_deref(), Some(customer.as_str()));
    assert_eq!(listed[0].name, "Sipho Nkosi");

    // Another merchant sees none of it.
    let other = app.merchant("other@example.co.za").await;
    let mut stranger = other.open(Mode::Test).await;
    assert!(requests(&mut stranger).await.is_empty());
    let refused = error_of(
        stranger
            .command("cancel", Command::CancelEMandateRequest { request_id: id })
            .await,
    );
    assert_eq!(refused.code, ErrorCode::NotFound);
}

async fn bad_requests_name_every_field_and_mail_nothing(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut input = request_input("not-an-address", Language::En);
    input.method = PaymentMethod::Card;
    input.amount_cents = 0;
    input.start_date = "2026-03-02".into();
    let refused = error_of(request(&mut tab, "bad", input).await);
    assert_eq!(refused.code, ErrorCode::InvalidInput);
    let fields: Vec<(String, ErrorCode)> = refused
        .fields
        .into_iter()
        .map(|f| (f.field, f.code))
        .collect();
    for expected in [
        ("email", ErrorCode::InvalidEmail),
        ("method", ErrorCode::MethodNotForEMandate),
        ("amountCents", ErrorCode::InvalidAmount),
        ("startDate", ErrorCode::DateInPast),
    ] {
        assert!(
            fields.contains(&(expected.0.to_string(), expected.1)),
            "{expected:?} in {fields:?}"
        );
    }
    // DebiCheck's maximum is at most 1.5 times the amount.
    let mut input = request_input("lerato@example.co.za", Language::En);
    input.max_cents = Some(75_001);
    let refused = error_of(request(&mut tab, "max", input).await);
    assert_eq!(refused.fields[0].field, "maxCents");
    assert_eq!(
        refused.fields[0].code,
        ErrorCode::MaximumAboveDebicheckLimit
    );
    assert!(requests(&mut tab).await.is_empty());
    assert_eq!(app.mails_to("lerato@example.co.za"), 0);
}

async fn resend_cancel_and_expiry(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let id = committed_id(
        request(
            &mut tab,
            "req",
            request_input("lerato@example.co.za", Language::En),
        )
        .await,
    );
    committed_id(
        tab.command(
            "again",
            Command::ResendEMandateRequest {
                request_id: id.clone(),
            },
        )
        .await,
    );
    app.mails_containing("lerato@example.co.za", "/mandate/", 2)
        .await;
    assert_eq!(requests(&mut tab).await[0].sends, 2);

    // A month later the link is past its last day.
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
    let expired = requests(&mut tab).await.remove(0);
    assert_eq!(expired.state, EMandateState::Expired);
    // Resending asks again, with a fresh last day.
    committed_id(
        tab.command(
            "revive",
            Command::ResendEMandateRequest {
                request_id: id.clone(),
            },
        )
        .await,
    );
    let revived = requests(&mut tab).await.remove(0);
    assert_eq!(revived.state, EMandateState::Sent);
    assert!(revived.expires_on > expired.expires_on);
    assert_eq!(revived.sends, 3);

    committed_id(
        tab.command(
            "cancel",
            Command::CancelEMandateRequest {
                request_id: id.clone(),
            },
        )
        .await,
    );
    assert_eq!(requests(&mut tab).await[0].state, EMandateState::Cancelled);
    for command in [
        Command::ResendEMandateRequest {
            request_id: id.clone(),
        },
        Command::CancelEMandateRequest { request_id: id },
    ] {
        let refused = error_of(tab.command("closed", command).await);
        assert_eq!(refused.code, ErrorCode::EMandateClosed);
    }
    app.mails_containing("lerato@example.co.za", "/mandate/", 3)
        .await;
    assert_eq!(app.mails_to("lerato@example.co.za"), 3);
}

async fn the_payer_opening_the_link_is_seen_live(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    committed_id(
        request(
            &mut tab,
            "req",
            request_input("lerato@example.co.za", Language::Afr),
        )
        .await,
    );
    // The payer follows the link in the mail, on a browser of their own.
    let link = app.link_in_mail("lerato@example.co.za", "/mandate/").await;
    let payer = app.browser();
    let page = payer.http.get(&link).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("default-src 'none'"), "{csp}");
    let html = page.text().await.unwrap();
    // The request's language, the terms in plain words, no script, small.
    assert!(html.contains("<html lang=\"af\">"), "{html}");
    assert!(html.contains("R\u{a0}500,00 elke maand"), "{html}");
    assert!(
        html.contains("1 April 2026") && html.contains("R\u{a0}600,00"),
        "{html}"
    );
    assert!(!html.contains("<script"));
    assert!(html.len() <= 30 * 1024, "{} bytes", html.len());
    let english = payer
        .http
        .get(format!("{link}?lang=en"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(english.contains("R\u{a0}500,00 every month"), "{english}");

    let opened = watcher
        .next_matching(|f| {
            matches!(f, ServerFrame::Delta { changes, .. }
                if changes.iter().any(|c| matches!(c, Change::EMandateRequestUpserted { request } if request.state == EMandateState::Opened)))
        })
        .await;
    assert!(matches!(opened, ServerFrame::Delta { .. }));
    // Opening it again writes nothing more: one "opened" event, by the payer.
    let listed = requests(&mut tab).await.remove(0);
    assert_eq!(listed.state, EMandateState::Opened);
    let causes = app.event_causes("owner@example.co.za", Mode::Test).await;
    let by_payer: Vec<_> = causes.iter().filter(|c| c.actor_kind == "payer").collect();
    assert_eq!(by_payer.len(), 1);
    assert_eq!(by_payer[0].actor_id.as_deref(), Some(listed.id.as_str()));
    assert!(by_payer[0].client_address.is_some());

    // A withdrawn request's link says so; a made-up one finds nothing.
    committed_id(
        tab.command(
            "cancel",
            Command::CancelEMandateRequest {
                request_id: listed.id.clone(),
            },
        )
        .await,
    );
    let gone = payer.http.get(&link).send().await.unwrap();
    assert_eq!(gone.status(), 410);
    assert!(gone.text().await.unwrap().contains("werk nie meer nie"));
    let unknown = payer
        .http
        .get(app.url(&format!("/mandate/{}", "A".repeat(43))))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);
    assert_eq!(requests(&mut tab).await[0].state, EMandateState::Cancelled);
}

on_both_databases!(
    the_payer_opening_the_link_is_seen_live,
    a_request_is_mailed_in_the_payers_language_and_seen_live,
    bad_requests_name_every_field_and_mail_nothing,
    resend_cancel_and_expiry
);
