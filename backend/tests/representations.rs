//! Unpaid 02s presented again, over many schedules at once: monthly,
//! fortnightly and weekly, days to process at month ends and on holidays,
//! with and without date adjustment, DebiCheck and EFT debit orders whose
//! unpaids come back on different days. Three months of the test clock on,
//! no mandate has two debits on one day; every re-presentation showed its
//! day on the payment before that day came, with the day it moved from in
//! the payment's history; and a once-off debit the merchant retries on a
//! day its mandate already collects goes on the next free business day.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support::{eft_mandate, new_mandate, payment};
use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use common::{Database, Socket, TestApp, committed_id};
use protocol::*;

/// What the watching tab saw: the last day played, and when each payment
/// first showed each day as its re-presentation's.
struct Seen {
    played: String,
    planned: HashMap<(String, String), String>,
}

impl Seen {
    fn take(&mut self, changes: &[Change]) {
        for change in changes {
            match change {
                Change::ClockAdvanced { today } => self.played = today.clone(),
                Change::PaymentUpserted { payment } => {
                    if let Some(day) = &payment.representation_date {
                        self.planned
                            .entry((payment.id.clone(), day.clone()))
                            .or_insert_with(|| self.played.clone());
                    }
                }
                _ => {}
            }
        }
    }
}

/// Moves the test clock by `step` and reads the watcher's deltas until the
/// scheduler has played `day`.
async fn play(tab: &mut Socket, watcher: &mut Socket, seen: &mut Seen, step: ClockStep, day: &str) {
    let reply = tab
        .command(&format!("clock-{day}"), Command::AdvanceTestClock { step })
        .await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: Some(_), .. }),
        "{reply:?}"
    );
    loop {
        match watcher.next_within(Duration::from_secs(30)).await {
            Ok(ServerFrame::Delta { changes, .. }) => {
                seen.take(&changes);
                if changes
                    .iter()
                    .any(|c| matches!(c, Change::ClockAdvanced { today } if today == day))
                {
                    return;
                }
            }
            Ok(_) => {}
            Err(_) => panic!("the clock never reached {day}"),
        }
    }
}

async fn payer(tab: &mut Socket, n: usize) -> String {
    let input = CustomerInput {
        name: format!("Payer {n}"),
        email: format!("payer{n}@example.co.za"),
        cellphone: "+27821234567".into(),
        id_type: Some(IdType::SouthAfricanId),
        id_number: "8801235111088".into(),
        ..Default::default()
    };
    committed_id(
        tab.command(&format!("c{n}"), Command::CreateCustomer { input })
            .await,
    )
}

async fn create(tab: &mut Socket, id: &str, input: PaymentInput) -> String {
    committed_id(
        tab.command(
            id,
            Command::CreatePayment {
                input: Box::new(input),
            },
        )
        .await,
    )
}

/// Every debit of the merchant's test data, page by page.
async fn every_debit(tab: &mut Socket) -> Vec<Transaction> {
    let (mut all, mut cursor) = (Vec::new(), None);
    loop {
        let query = Query::ListTransactions {
            filter: TransactionFilter::default(),
            sort: SortOrder::Oldest,
            cursor: cursor.clone(),
            limit: Some(200),
        };
        match tab.query("t", query).await {
            ServerFrame::Reply {
                ok: Some(ReplyBody::TransactionPage { items, next_cursor }),
                ..
            } => {
                all.extend(items);
                match next_cursor {
                    Some(next) => cursor = Some(next),
                    None => return all,
                }
            }
            other => panic!("{other:?}"),
        }
    }
}

/// Whether some history entry of a payment names `field` as changed.
async fn history_names(tab: &mut Socket, field: &str) -> bool {
    let mut cursor = None;
    for _ in 0..20 {
        let query = Query::ListHistory {
            filter: HistoryFilter {
                record_kind: Some("payment".into()),
                ..Default::default()
            },
            cursor: cursor.clone(),
            limit: Some(200),
        };
        match tab.query("h", query).await {
            ServerFrame::Reply {
                ok:
                    Some(ReplyBody::HistoryPage {
                        items, next_cursor, ..
                    }),
                ..
            } => {
                if items.iter().any(|e| e.fields.iter().any(|f| f == field)) {
                    return true;
                }
                match next_cursor {
                    Some(next) => cursor = Some(next),
                    None => return false,
                }
            }
            other => panic!("{other:?}"),
        }
    }
    false
}

/// A recurring R100 from 3 March 2026 under a new mandate whose every debit
/// comes back unpaid 02: DebiCheck two business days after the debit, an
/// EFT debit order (no tracking: the shortfall is an 02 at once) one.
fn schedule(customer_id: &str, n: usize, interval: Interval, day: u8) -> PaymentInput {
    let contract = format!("SCHED{n}");
    let mut mandate = if n.is_multiple_of(3) {
        eft_mandate("4000000005", &contract)
    } else {
        new_mandate(PaymentMethod::Debicheck, "4000000002", &contract)
    };
    mandate.allow_date_adjustment = n.is_multiple_of(2);
    PaymentInput {
        customer_id: customer_id.into(),
        mandate: Some(MandateChoice::New {
            input: Box::new(mandate),
        }),
        kind: PaymentKind::Recurring,
        amount_cents: Some(10_000),
        date_to_process: None,
        transaction_reference: String::new(),
        start_date: Some("2026-03-03".into()),
        end_date: None,
        interval: Some(interval),
        day_to_process: Some(day),
        first_collection_cents: None,
        start_running: true,
    }
}

/// Days to process at month ends, around Easter (3 and 6 April 2026),
/// Freedom Day (27 April), Workers' Day (1 May) and Youth Day (16 June).
const SCHEDULES: [(Interval, u8); 17] = [
    (Interval::Monthly, 1),
    (Interval::Monthly, 2),
    (Interval::Monthly, 3),
    (Interval::Monthly, 6),
    (Interval::Monthly, 16),
    (Interval::Monthly, 27),
    (Interval::Monthly, 28),
    (Interval::Monthly, 29),
    (Interval::Monthly, 30),
    (Interval::Monthly, 31),
    (Interval::Fortnightly, 1),
    (Interval::Fortnightly, 5),
    (Interval::Fortnightly, 14),
    (Interval::Weekly, 1),
    (Interval::Weekly, 4),
    (Interval::Weekly, 5),
    (Interval::Weekly, 7),
];

async fn no_mandate_is_debited_twice_on_one_day(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let mut seen = Seen {
        played: "2026-03-02".into(),
        planned: HashMap::new(),
    };

    for (n, (interval, day)) in SCHEDULES.iter().enumerate() {
        let customer_id = payer(&mut tab, n).await;
        create(
            &mut tab,
            &format!("s{n}"),
            schedule(&customer_id, n, *interval, *day),
        )
        .await;
    }
    // One mandate collecting on the 5th of each month and a once-off R250
    // on 3 March, both coming back unpaid 02.
    let shared = payer(&mut tab, 99).await;
    let mut monthly = schedule(&shared, 99, Interval::Monthly, 5);
    monthly.mandate = Some(MandateChoice::New {
        input: Box::new(eft_mandate("4000000002", "SHARED")),
    });
    let monthly_id = create(&mut tab, "shared-monthly", monthly).await;
    let mandate_id = payment(&mut tab, &monthly_id).await.mandate_id;
    let once_id = create(
        &mut tab,
        "shared-once",
        PaymentInput {
            customer_id: shared.clone(),
            mandate: Some(MandateChoice::Existing {
                mandate_id: mandate_id.clone(),
            }),
            kind: PaymentKind::Once,
            amount_cents: Some(25_000),
            date_to_process: Some("2026-03-03".into()),
            transaction_reference: "ONCE-1".into(),
            start_date: None,
            end_date: None,
            interval: None,
            day_to_process: None,
            first_collection_cents: None,
            start_running: true,
        },
    )
    .await;

    for day in ["2026-03-03", "2026-03-04", "2026-03-05"] {
        play(&mut tab, &mut watcher, &mut seen, ClockStep::Day, day).await;
    }
    // The once-off debit came back on the 5th, the day its mandate's
    // monthly debit went: retried today, it goes tomorrow, and says so.
    let paused = payment(&mut tab, &once_id).await;
    assert_eq!(paused.status, PaymentStatus::Paused, "{paused:?}");
    let retry = tab
        .command(
            "retry",
            Command::ActOnPayment {
                payment_id: once_id.clone(),
                action: PaymentAction::Retry,
            },
        )
        .await;
    assert!(
        matches!(retry, ServerFrame::Reply { ok: Some(_), .. }),
        "{retry:?}"
    );
    let retried = payment(&mut tab, &once_id).await;
    assert_eq!(
        (
            retried.representation_date.as_deref(),
            retried.representation_moved_from.as_deref(),
            retried.representation_cents
        ),
        (Some("2026-03-06"), Some("2026-03-05"), Some(25_000)),
        "{retried:?}"
    );
    // The home screen lists it beside the schedules' next debits.
    match tab.query("d", Query::GetDashboard {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Dashboard { dashboard }),
            ..
        } => assert!(
            dashboard.upcoming.iter().any(|u| u.payment_id == once_id
                && u.representation
                && u.action_date == "2026-03-06"
                && u.amount_cents == 25_000),
            "{:?}",
            dashboard.upcoming
        ),
        other => panic!("{other:?}"),
    }

    for day in ["2026-04-05", "2026-05-05", "2026-06-05"] {
        play(&mut tab, &mut watcher, &mut seen, ClockStep::Month, day).await;
    }

    let debits = every_debit(&mut tab).await;
    let mut by_day: BTreeMap<(String, String), Vec<&Transaction>> = BTreeMap::new();
    for debit in &debits {
        let mandate = debit.mandate_id.clone().expect("a debit order");
        by_day
            .entry((mandate, debit.action_date.clone()))
            .or_default()
            .push(debit);
    }
    for ((mandate, day), same_day) in &by_day {
        assert_eq!(
            same_day.len(),
            1,
            "{mandate} is debited twice on {day}: {same_day:?}"
        );
    }
    let again: Vec<&Transaction> = debits.iter().filter(|d| d.attempt > 1).collect();
    // Each schedule's debits, for the message should one present nothing again.
    let mut by_payer: BTreeMap<&str, Vec<(&str, u32)>> = BTreeMap::new();
    for d in &debits {
        by_payer
            .entry(d.customer_name.as_str())
            .or_default()
            .push((d.action_date.as_str(), d.attempt));
    }
    assert!(
        again.len() > SCHEDULES.len(),
        "every schedule presents an unpaid again: {by_payer:?}"
    );
    for debit in &again {
        let payment_id = debit.payment_id.clone().expect("a debit order");
        let shown = seen.planned.get(&(payment_id, debit.action_date.clone()));
        assert!(
            shown.is_some_and(|played| played.as_str() < debit.action_date.as_str()),
            "{} was not on its payment before it went: {shown:?}",
            debit.action_date
        );
    }
    // The once-off re-presentation went on the 6th, beside nothing.
    let once_again: Vec<_> = again
        .iter()
        .filter(|d| d.payment_id.as_deref() == Some(once_id.as_str()))
        .map(|d| d.action_date.as_str())
        .collect();
    assert_eq!(once_again, ["2026-03-06"]);
    // Each move is in the payment's history.
    assert!(history_names(&mut tab, "representationDate").await);
    assert!(history_names(&mut tab, "representationMovedFrom").await);
}

on_both_databases!(no_mandate_is_debited_twice_on_one_day);
