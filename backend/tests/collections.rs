//! Collections through the live socket, in test mode with a pinned calendar:
//! a DebiCheck schedule playing out over a month of the test clock, a
//! closed account stopping a payment, and the rules the form relies on.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support;
use crate::common;

use std::time::Duration;

use collection_support::{
    customer, eft_mandate, mandate, monthly, named, new_mandate, nothing_written, once_under,
    payment, transactions,
};
use common::{Database, Socket, TestApp, committed_id, error_of};
use protocol::*;

/// Reads deltas until the clock reaches `day`; checks they arrive in `seq`
/// order with no gap and returns every change.
async fn deltas_until(socket: &mut Socket, day: &str) -> Vec<Change> {
    let mut changes = Vec::new();
    let mut last_seq = None;
    loop {
        match socket.next_within(Duration::from_secs(20)).await {
            Ok(ServerFrame::Delta { seq, changes: got }) => {
                if let Some(last) = last_seq {
                    assert_eq!(seq, last + 1, "deltas arrive in order with no gap");
                }
                last_seq = Some(seq);
                let done = got
                    .iter()
                    .any(|c| matches!(c, Change::ClockAdvanced { today } if today == day));
                changes.extend(got);
                if done {
                    return changes;
                }
            }
            Ok(_) => {}
            Err(_) => panic!("the clock never reached {day}; saw {changes:?}"),
        }
    }
}

async fn a_debicheck_schedule_plays_out_over_a_month(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let other = app.merchant("other@elsewhere.test").await;
    let mut stranger = other.open(Mode::Test).await;

    let customer_id = customer(&mut tab).await;
    let payment_id = committed_id(
        tab.command(
            "pay",
            Command::CreatePayment {
                input: Box::new(monthly(
                    &customer_id,
                    new_mandate(PaymentMethod::Debicheck, "4000000001", "GYM2026"),
                )),
            },
        )
        .await,
    );
    // The payer approves in real time, on the same business day.
    let created = payment(&mut tab, &payment_id).await;
    let mut waited = 0;
    let mut current = created;
    while current.status != PaymentStatus::Running && waited < 50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        current = payment(&mut tab, &payment_id).await;
        waited += 1;
    }
    assert_eq!(current.status, PaymentStatus::Running);
    assert_eq!(current.next_action_date.as_deref(), Some("2026-03-05"));
    assert_eq!(
        mandate(&mut tab, &current.mandate_id).await.status,
        MandateStatus::Active
    );

    let reply = tab
        .command(
            "clock",
            Command::AdvanceTestClock {
                step: ClockStep::Month,
            },
        )
        .await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: Some(_), .. }),
        "{reply:?}"
    );
    let seen = deltas_until(&mut watcher, "2026-04-02").await;

    // 5 March is a Thursday: debited then, paid the next business day.
    let debits = transactions(&mut tab, TransactionFilter::default()).await;
    assert_eq!(debits.len(), 1, "{debits:?}");
    let debit = &debits[0];
    assert_eq!(debit.action_date, "2026-03-05");
    assert_eq!(debit.status, TransactionStatus::Paid);
    let steps: Vec<_> = debit
        .history
        .iter()
        .map(|s| (s.status, s.date.as_str()))
        .collect();
    assert_eq!(
        steps,
        [
            (TransactionStatus::Pending, "2026-03-05"),
            (TransactionStatus::SentToBank, "2026-03-05"),
            (TransactionStatus::AcceptedByBank, "2026-03-05"),
            (TransactionStatus::Paid, "2026-03-06"),
        ]
    );
    // The list filters on the server: status, last digits of the account, name.
    for (filter, expected) in [
        (
            TransactionFilter {
                status: Some(TransactionStatus::Paid),
                search: Some("0001".into()),
                ..Default::default()
            },
            1,
        ),
        (
            TransactionFilter {
                search: Some("mokoena".into()),
                min_cents: Some(10_000),
                ..Default::default()
            },
            1,
        ),
        (
            TransactionFilter {
                status: Some(TransactionStatus::Unpaid),
                ..Default::default()
            },
            0,
        ),
        (
            TransactionFilter {
                search: Some("9999".into()),
                ..Default::default()
            },
            0,
        ),
        (
            TransactionFilter {
                from: Some("2026-03-06".into()),
                ..Default::default()
            },
            0,
        ),
    ] {
        assert_eq!(
            transactions(&mut tab, filter.clone()).await.len(),
            expected,
            "{filter:?}"
        );
    }
    // 5 April 2026 is a Sunday and 6 April Family Day: the next debit is Tuesday the 7th.
    let after = payment(&mut tab, &payment_id).await;
    assert_eq!(after.status, PaymentStatus::Running);
    assert_eq!(after.collected_cents, 10_000);
    assert_eq!(after.next_action_date.as_deref(), Some("2026-04-07"));

    // The second tab saw the debit reach every state live.
    let statuses: Vec<_> = seen
        .iter()
        .filter_map(|c| match c {
            Change::TransactionUpserted { transaction } if transaction.id == debit.id => {
                Some(transaction.status)
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        statuses,
        [TransactionStatus::AcceptedByBank, TransactionStatus::Paid]
    );
    assert!(seen.iter().any(|c| matches!(c,
        Change::PaymentUpserted { payment } if payment.id == payment_id && payment.collected_cents == 10_000)));

    let dashboard = match tab.query("d", Query::GetDashboard {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Dashboard { dashboard }),
            ..
        } => dashboard,
        other => panic!("{other:?}"),
    };
    assert_eq!(dashboard.today, "2026-04-02");
    assert_eq!(dashboard.upcoming.len(), 1);
    assert_eq!(dashboard.upcoming[0].action_date, "2026-04-07");

    // Another merchant heard nothing and sees nothing.
    stranger.expect_silence(Duration::from_millis(300)).await;
    assert!(
        transactions(&mut stranger, TransactionFilter::default())
            .await
            .is_empty()
    );
    let foreign = error_of(
        stranger
            .command(
                "x",
                Command::ActOnPayment {
                    payment_id: payment_id.clone(),
                    action: PaymentAction::Pause,
                },
            )
            .await,
    );
    assert_eq!(foreign.code, ErrorCode::NotFound);

    // Live mode has no test clock.
    let mut live = owner.open(Mode::Live).await;
    let refused = error_of(
        live.command(
            "c",
            Command::AdvanceTestClock {
                step: ClockStep::Day,
            },
        )
        .await,
    );
    assert_eq!(refused.code, ErrorCode::TestModeOnly);

    // Every event records who caused it: the member's commands with their
    // session, command id and address; the days the scheduler played as its own.
    let (user_id, _) = app.owner_ids("owner@karoo.test").await;
    let causes = app.event_causes("owner@karoo.test", Mode::Test).await;
    let created = causes
        .iter()
        .find(|c| c.command_id.as_deref() == Some("c1"))
        .expect("the customer's event");
    assert_eq!(created.actor_kind, "user");
    assert_eq!(created.actor_id.as_deref(), Some(user_id.as_str()));
    assert!(created.session_id.as_ref().is_some_and(|s| !s.is_empty()));
    assert_eq!(created.client_address.as_deref(), Some("127.0.0.1"));
    let days: Vec<_> = causes
        .iter()
        .filter(|c| c.actor_kind == "scheduler")
        .collect();
    assert!(!days.is_empty(), "the month's days are the scheduler's");
    for day in days {
        assert_eq!(
            (
                &day.actor_id,
                &day.session_id,
                &day.command_id,
                &day.client_address
            ),
            (&None, &None, &None, &None)
        );
    }
    assert!(causes.iter().all(|c| c.actor_kind != "unrecorded"));
}

/// The simulated bank's "payer declines" account: the mandate is rejected,
/// its payment (still pending) stops, and every other payer is still debited.
async fn a_declined_debicheck_stops_its_payment_and_the_days_go_on(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let customer_id = customer(&mut tab).await;
    let declined = committed_id(
        tab.command(
            "declined",
            Command::CreatePayment {
                input: Box::new(monthly(
                    &customer_id,
                    new_mandate(PaymentMethod::Debicheck, "4100000002", "NOMVULA"),
                )),
            },
        )
        .await,
    );
    let approved = committed_id(
        tab.command(
            "approved",
            Command::CreatePayment {
                input: Box::new(monthly(
                    &customer_id,
                    new_mandate(PaymentMethod::Debicheck, "4000000001", "GYM2026"),
                )),
            },
        )
        .await,
    );
    let mut stopped = payment(&mut tab, &declined).await;
    for _ in 0..50 {
        if stopped.status != PaymentStatus::Pending {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        stopped = payment(&mut tab, &declined).await;
    }
    assert_eq!(stopped.status, PaymentStatus::Stopped, "{stopped:?}");
    assert_eq!(stopped.stop_reason.as_deref(), Some("mandate_ended"));
    assert_eq!(stopped.next_action_date, None);
    assert_eq!(
        mandate(&mut tab, &stopped.mandate_id).await.status,
        MandateStatus::Rejected
    );

    tab.command(
        "clock",
        Command::AdvanceTestClock {
            step: ClockStep::Month,
        },
    )
    .await;
    deltas_until(&mut tab, "2026-04-02").await;
    let debits = transactions(
        &mut tab,
        TransactionFilter {
            payment_id: Some(approved.clone()),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(debits.len(), 1, "the approved payer is debited on the 5th");
    let nothing = transactions(
        &mut tab,
        TransactionFilter {
            payment_id: Some(declined),
            ..Default::default()
        },
    )
    .await;
    assert!(nothing.is_empty());
}

async fn a_closed_account_stops_the_payment_and_disables_the_mandate(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let customer_id = customer(&mut tab).await;
    let mut input = once_under(
        &customer_id,
        MandateChoice::New {
            input: Box::new(eft_mandate("4000000012", "GYM2026")),
        },
    );
    input.transaction_reference = "INV-1001".into();
    let payment_id = committed_id(
        tab.command(
            "pay",
            Command::CreatePayment {
                input: Box::new(input),
            },
        )
        .await,
    );
    tab.command(
        "clock",
        Command::AdvanceTestClock {
            step: ClockStep::Week,
        },
    )
    .await;
    deltas_until(&mut tab, "2026-03-09").await;
    let debits = transactions(
        &mut tab,
        TransactionFilter {
            payment_id: Some(payment_id.clone()),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(debits.len(), 1);
    assert_eq!(debits[0].status, TransactionStatus::Unpaid);
    assert_eq!(debits[0].unpaid_code.as_deref(), Some("12"));
    assert_eq!(debits[0].reference, "INV-1001");
    let stopped = payment(&mut tab, &payment_id).await;
    assert_eq!(stopped.status, PaymentStatus::Stopped);
    assert_eq!(stopped.stop_reason.as_deref(), Some("12"));
    assert_eq!(
        mandate(&mut tab, &stopped.mandate_id).await.status,
        MandateStatus::Disabled
    );
    // Only an insufficient-funds unpaid may be retried.
    let retry = error_of(
        tab.command(
            "retry",
            Command::ActOnPayment {
                payment_id,
                action: PaymentAction::Retry,
            },
        )
        .await,
    );
    assert_eq!(retry.code, ErrorCode::RetryNotAllowed);
}

async fn bad_payments_are_refused_with_every_field_named(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let customer_id = customer(&mut tab).await;
    let mut mandate_input = new_mandate(PaymentMethod::Debicheck, "4000000001", "GYM2026");
    mandate_input.client_type = ClientType::DomesticCompany;
    mandate_input.maximum_collection_cents = Some(20_000);
    mandate_input.contract_reference = "GYM-2026".into();
    let mut input = monthly(&customer_id, mandate_input);
    input.start_date = Some("2026-03-01".into());
    input.day_to_process = Some(32);
    let error = error_of(
        tab.command(
            "pay",
            Command::CreatePayment {
                input: Box::new(input),
            },
        )
        .await,
    );
    let fields = named(&error);
    for expected in [
        ("startDate", ErrorCode::DateInPast),
        ("mandate.clientType", ErrorCode::DebicheckIndividualsOnly),
        (
            "mandate.maximumCollectionCents",
            ErrorCode::MaximumAboveDebicheckLimit,
        ),
        ("mandate.contractReference", ErrorCode::InvalidCharacters),
    ] {
        assert!(
            fields.contains(&expected),
            "{expected:?} missing from {fields:?}"
        );
    }
    // Nothing was written: no mandate, no bank account, no payment.
    nothing_written(&mut tab, &customer_id).await;
}

async fn a_payments_mistakes_are_told_together_with_its_mandates(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let customer_id = customer(&mut tab).await;
    let first = once_under(
        &customer_id,
        MandateChoice::New {
            input: Box::new(eft_mandate("4000000001", "GYM2026")),
        },
    );
    let payment_id = committed_id(
        tab.command(
            "pay",
            Command::CreatePayment {
                input: Box::new(first),
            },
        )
        .await,
    );
    let mandate_id = payment(&mut tab, &payment_id).await.mandate_id;
    committed_id(
        tab.command(
            "cancel",
            Command::ActOnMandate {
                mandate_id: mandate_id.clone(),
                action: MandateAction::Cancel,
            },
        )
        .await,
    );

    // A mandate that can no longer collect, and no date to collect on.
    let mut under_cancelled = once_under(&customer_id, MandateChoice::Existing { mandate_id });
    under_cancelled.date_to_process = None;
    let error = error_of(
        tab.command(
            "again",
            Command::CreatePayment {
                input: Box::new(under_cancelled),
            },
        )
        .await,
    );
    assert_eq!(
        named(&error),
        [
            ("dateToProcess", ErrorCode::Required),
            ("mandate", ErrorCode::MandateNotUsable)
        ]
    );

    // The account the customer already has, and a reference with a space in it.
    let mut again = once_under(
        &customer_id,
        MandateChoice::New {
            input: Box::new(eft_mandate("4000000001", "GYM2027")),
        },
    );
    again.transaction_reference = "INV 1".into();
    let error = error_of(
        tab.command(
            "new",
            Command::CreatePayment {
                input: Box::new(again),
            },
        )
        .await,
    );
    assert_eq!(
        named(&error),
        [
            ("transactionReference", ErrorCode::InvalidCharacters),
            (
                "mandate.bankAccount.accountNumber",
                ErrorCode::DuplicateBankAccount
            )
        ]
    );
}

/// Asks for the payment until `done` holds (the scheduler runs just after a
/// command's reply).
async fn payment_when(socket: &mut Socket, id: &str, done: impl Fn(&Payment) -> bool) -> Payment {
    for _ in 0..50 {
        let current = payment(socket, id).await;
        if done(&current) {
            return current;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("payment {id} never reached the expected state")
}

async fn insufficient_funds_is_retried_twice_then_stops_with_60(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let customer_id = customer(&mut tab).await;
    let mut input = once_under(
        &customer_id,
        MandateChoice::New {
            input: Box::new(eft_mandate("4000000002", "GYM2026")),
        },
    );
    input.transaction_reference = "INV-2002".into();
    let payment_id = committed_id(
        tab.command(
            "pay",
            Command::CreatePayment {
                input: Box::new(input),
            },
        )
        .await,
    );
    let weeks = ["2026-03-09", "2026-03-16", "2026-03-23"];
    for (round, week_end) in weeks.iter().enumerate() {
        tab.command(
            &format!("clock{round}"),
            Command::AdvanceTestClock {
                step: ClockStep::Week,
            },
        )
        .await;
        deltas_until(&mut tab, week_end).await;
        let debits = transactions(
            &mut tab,
            TransactionFilter {
                payment_id: Some(payment_id.clone()),
                ..Default::default()
            },
        )
        .await;
        assert_eq!(debits.len(), round + 1, "{debits:?}");
        let last = debits.last().unwrap();
        assert_eq!(last.status, TransactionStatus::Unpaid);
        assert_eq!(last.unpaid_code.as_deref(), Some("02"));
        assert_eq!(last.attempt as usize, round + 1);
        let after = payment(&mut tab, &payment_id).await;
        if round < 2 {
            // Paused for the merchant to re-present it.
            assert_eq!(after.status, PaymentStatus::Paused);
            assert_eq!(after.stop_reason.as_deref(), Some("02"));
            let retry = tab
                .command(
                    &format!("retry{round}"),
                    Command::ActOnPayment {
                        payment_id: payment_id.clone(),
                        action: PaymentAction::Retry,
                    },
                )
                .await;
            assert!(
                matches!(retry, ServerFrame::Reply { ok: Some(_), .. }),
                "{retry:?}"
            );
            payment_when(&mut tab, &payment_id, |p| p.attempts as usize == round + 2).await;
        } else {
            // The third 02 in a row counts as consecutive unpaids.
            assert_eq!(after.status, PaymentStatus::Stopped);
            assert_eq!(after.stop_reason.as_deref(), Some("60"));
            assert_eq!(after.consecutive_unpaids, 3);
        }
    }
}

on_both_databases!(
    a_debicheck_schedule_plays_out_over_a_month,
    a_declined_debicheck_stops_its_payment_and_the_days_go_on,
    a_closed_account_stops_the_payment_and_disables_the_mandate,
    bad_payments_are_refused_with_every_field_named,
    a_payments_mistakes_are_told_together_with_its_mandates,
    insufficient_funds_is_retried_twice_then_stops_with_60
);
