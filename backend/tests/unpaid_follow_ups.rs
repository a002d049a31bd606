//! Following up unpaid debit orders over the socket: presenting an unpaid 02
//! again on a chosen day (and the bank seeing it that day), a pay link for an
//! unpaid 12, a new mandate asked for by e-mail, and a message to the payer.
//! Each is kept on the transaction, which a teammate's tab receives live and
//! the history records; a refused one leaves the transaction as it was; a
//! Viewer and another merchant are refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support::{customer, eft_mandate, monthly, named, once_under, payment};
use crate::common;
use crate::e_mandate_support::requests;

use std::time::Duration;

use common::members::{add_member, on_merchant};
use common::{Database, Socket, TestApp, committed_id, error_of};
use protocol::*;

const OWNER: &str = "owner@karoo.test";
const PAYER: &str = "thabo@example.co.za";

async fn act(
    tab: &mut Socket,
    id: &str,
    transaction_id: &str,
    action: UnpaidAction,
) -> ServerFrame {
    tab.command(
        id,
        Command::ActOnUnpaid {
            transaction_id: transaction_id.into(),
            action,
        },
    )
    .await
}

async fn transaction(tab: &mut Socket, id: &str) -> Transaction {
    match tab
        .query(
            "get-t",
            Query::GetTransaction {
                transaction_id: id.into(),
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Transaction { transaction }),
            ..
        } => *transaction,
        other => panic!("{other:?}"),
    }
}

/// The merchant's debits of `payment_id`, oldest first, once `count` exist
/// (the test clock's days are played after the command's reply).
async fn debits_of(tab: &mut Socket, payment_id: &str, count: usize) -> Vec<Transaction> {
    for _ in 0..200 {
        let filter = TransactionFilter {
            payment_id: Some(payment_id.into()),
            ..Default::default()
        };
        let debits = crate::collection_support::transactions(tab, filter).await;
        if debits.len() >= count && debits.iter().all(|d| is_settled(d.status)) {
            return debits;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("payment {payment_id} never had {count} settled debits");
}

fn is_settled(status: TransactionStatus) -> bool {
    matches!(
        status,
        TransactionStatus::Paid | TransactionStatus::Unpaid | TransactionStatus::RejectedByBank
    )
}

async fn advance(tab: &mut Socket, id: &str, step: ClockStep) {
    let reply = tab.command(id, Command::AdvanceTestClock { step }).await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: Some(_), .. }),
        "{reply:?}"
    );
}

/// Reads the watcher's deltas until one carries `transaction_id` with
/// `count` follow-ups.
async fn sees_follow_ups(watcher: &mut Socket, transaction_id: &str, count: usize) {
    loop {
        match watcher.next_within(Duration::from_secs(10)).await {
            Ok(ServerFrame::Delta { changes, .. }) => {
                if changes.iter().any(|c| {
                    matches!(c, Change::TransactionUpserted { transaction }
                        if transaction.id == transaction_id && transaction.follow_ups.len() == count)
                }) {
                    return;
                }
            }
            Ok(_) => {}
            Err(_) => panic!("the teammate's tab never saw follow-up {count} of {transaction_id}"),
        }
    }
}

async fn follow_ups_are_kept_live_and_checked(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;

    // An unpaid 02 (insufficient funds) on 3 March, and an unpaid 12
    // (account closed) on a monthly schedule's first debit on the 5th.
    let customer_id = customer(&mut tab).await;
    let once = once_under(
        &customer_id,
        MandateChoice::New {
            input: Box::new(eft_mandate("4000000002", "SHORT1")),
        },
    );
    let once_id = committed_id(
        tab.command(
            "once",
            Command::CreatePayment {
                input: Box::new(once),
            },
        )
        .await,
    );
    let closed = monthly(&customer_id, eft_mandate("4000000012", "CLOSED1"));
    let monthly_id = committed_id(
        tab.command(
            "monthly",
            Command::CreatePayment {
                input: Box::new(closed),
            },
        )
        .await,
    );
    let paid = once_under(
        &customer_id,
        MandateChoice::New {
            input: Box::new(eft_mandate("4000000001", "PAID1")),
        },
    );
    let paid_id = committed_id(
        tab.command(
            "paid",
            Command::CreatePayment {
                input: Box::new(paid),
            },
        )
        .await,
    );
    advance(&mut tab, "week", ClockStep::Week).await;
    let short = debits_of(&mut tab, &once_id, 1).await.remove(0);
    let closed = debits_of(&mut tab, &monthly_id, 1).await.remove(0);
    let paid = debits_of(&mut tab, &paid_id, 1).await.remove(0);
    assert_eq!(short.unpaid_code.as_deref(), Some("02"), "{short:?}");
    assert_eq!(closed.unpaid_code.as_deref(), Some("12"), "{closed:?}");
    assert_eq!(paid.status, TransactionStatus::Paid);
    // The clock is on Monday 9 March now.

    // Refused days name the date field, and change nothing.
    let represent = |date: &str| UnpaidAction::Represent { date: date.into() };
    for (date, code) in [
        ("2026-03-14", ErrorCode::NotBusinessDay),
        ("2026-03-06", ErrorCode::DateInPast),
        ("2026-04-20", ErrorCode::RepresentationTooLate),
        ("14 March", ErrorCode::InvalidDate),
    ] {
        let error =
            error_of(act(&mut tab, &format!("bad-{date}"), &short.id, represent(date)).await);
        assert_eq!(named(&error), [("date", code)], "{date}");
    }
    // Only an unpaid the bank allows again, and only an unpaid.
    let error = error_of(
        act(
            &mut tab,
            "closed-again",
            &closed.id,
            represent("2026-03-11"),
        )
        .await,
    );
    assert_eq!(error.code, ErrorCode::RetryNotAllowed);
    let error = error_of(act(&mut tab, "paid-again", &paid.id, represent("2026-03-11")).await);
    assert_eq!(error.code, ErrorCode::NotUnpaid);
    assert!(transaction(&mut tab, &short.id).await.follow_ups.is_empty());
    assert_eq!(
        payment(&mut tab, &once_id).await.status,
        PaymentStatus::Paused,
        "a refused day left the payment waiting"
    );

    // Presented again on Wednesday the 11th: the payment runs and shows the
    // day; the transaction keeps it, and the teammate sees it at once.
    let reply = act(&mut tab, "again", &short.id, represent("2026-03-11")).await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: Some(_), .. }),
        "{reply:?}"
    );
    sees_follow_ups(&mut watcher, &short.id, 1).await;
    let moved = payment(&mut tab, &once_id).await;
    assert_eq!(moved.status, PaymentStatus::Running);
    assert_eq!(moved.representation_date.as_deref(), Some("2026-03-11"));
    let kept = transaction(&mut tab, &short.id).await.follow_ups;
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].kind, UnpaidFollowUpKind::Represented);
    assert_eq!(kept[0].date.as_deref(), Some("2026-03-11"));

    // A message to the payer: required, then mailed with the debit named.
    let email = |message: &str| UnpaidAction::EmailPayer {
        message: message.into(),
        language: Language::En,
    };
    let error = error_of(act(&mut tab, "empty-mail", &short.id, email("   ")).await);
    assert_eq!(named(&error), [("message", ErrorCode::Required)]);
    let reply = act(
        &mut tab,
        "mail",
        &short.id,
        email("Please make sure R 250 is in the account by Wednesday."),
    )
    .await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: Some(_), .. }),
        "{reply:?}"
    );
    let mails = app
        .mails_containing(PAYER, "Please make sure R 250 is in the account", 1)
        .await;
    assert!(mails[0].contains(&short.reference), "{}", mails[0]);
    sees_follow_ups(&mut watcher, &short.id, 2).await;

    // A pay link for the unpaid 12: a once-off page for the amount, used
    // once, mailed to the payer in Afrikaans.
    let reply = act(
        &mut tab,
        "link",
        &closed.id,
        UnpaidAction::SendPayLink {
            language: Language::Afr,
        },
    )
    .await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: Some(_), .. }),
        "{reply:?}"
    );
    let kept = transaction(&mut tab, &closed.id).await.follow_ups;
    let page_id = kept[0].pay_page_id.clone().expect("the page made");
    assert_eq!(kept[0].email.as_deref(), Some(PAYER));
    let page = match tab
        .query(
            "page",
            Query::GetPayPage {
                page_id: page_id.clone(),
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::PayPage { page }),
            ..
        } => *page,
        other => panic!("{other:?}"),
    };
    assert_eq!(page.amount_cents, Some(closed.amount_cents));
    assert_eq!(page.amount_mode, AmountMode::Fixed);
    assert_eq!(page.max_uses, Some(1));
    assert_eq!(page.reference, closed.reference);
    let mails = app
        .mails_containing(PAYER, &format!("/pay/{page_id}"), 1)
        .await;
    assert!(mails[0].contains("onbetaal"), "{}", mails[0]);

    // A new mandate asked for by e-mail, on the schedule's terms. A once-off
    // debit has none to repeat.
    let ask = UnpaidAction::RequestMandate {
        language: Language::En,
    };
    let error = error_of(act(&mut tab, "ask-once", &short.id, ask.clone()).await);
    assert_eq!(error.code, ErrorCode::ActionNotAllowed);
    let reply = act(&mut tab, "ask", &closed.id, ask.clone()).await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: Some(_), .. }),
        "{reply:?}"
    );
    let kept = transaction(&mut tab, &closed.id).await.follow_ups;
    assert_eq!(kept.len(), 2);
    let request_id = kept[1]
        .e_mandate_request_id
        .clone()
        .expect("the request made");
    let requests = requests(&mut tab).await;
    let request = requests
        .iter()
        .find(|r| r.id == request_id)
        .expect("listed");
    assert_eq!(request.customer_id.as_deref(), Some(customer_id.as_str()));
    assert_eq!(request.amount_cents, 10_000);
    assert_eq!(request.interval, Interval::Monthly);
    app.mails_containing(PAYER, "asks you to set up a debit order", 1)
        .await;

    // The history names the follow-ups on each transaction.
    let history = match tab
        .query(
            "history",
            Query::ListHistory {
                filter: HistoryFilter {
                    record_kind: Some("transaction".into()),
                    ..Default::default()
                },
                cursor: None,
                limit: Some(200),
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::HistoryPage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    };
    for id in [&short.id, &closed.id] {
        let entries = history
            .iter()
            .filter(|e| e.record_id.as_deref() == Some(id.as_str()))
            .filter(|e| e.fields.iter().any(|f| f == "followUps"))
            .count();
        assert_eq!(entries, 2, "{id}");
    }

    // A Viewer may not; another merchant does not find the transaction.
    let viewer = app.browser();
    let response = viewer
        .sign_up(
            "Lerato",
            "viewer@karoo.test",
            "karoo-sunset-41",
            "Lerato's Shop",
        )
        .await;
    assert_eq!(response.status(), 200);
    add_member(&app, OWNER, "viewer@karoo.test", Role::Viewer).await;
    let (mut lerato, _) = on_merchant(&viewer, &merchant_id, Mode::Test).await;
    let error = error_of(act(&mut lerato, "viewer", &short.id, email("Hello")).await);
    assert_eq!(error.code, ErrorCode::Forbidden);
    let stranger = app.merchant("stranger@elsewhere.test").await;
    let mut theirs = stranger.open(Mode::Test).await;
    let error = error_of(act(&mut theirs, "stranger", &short.id, email("Hello")).await);
    assert_eq!(error.code, ErrorCode::NotFound);
    assert_eq!(transaction(&mut tab, &short.id).await.follow_ups.len(), 2);

    // The bank sees the debit again on the chosen day.
    advance(&mut tab, "next-week", ClockStep::Week).await;
    let debits = debits_of(&mut tab, &once_id, 2).await;
    assert_eq!(debits[1].action_date, "2026-03-11", "{debits:?}");
    assert_eq!(debits[1].attempt, 2);
}

on_both_databases!(follow_ups_are_kept_live_and_checked);
