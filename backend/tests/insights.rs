//! The insights query over the real socket: a month of debits with known
//! outcomes played on the test clock, counted per day, week and month and
//! per method, the unpaid reasons, and the scheduled collections of the
//! next 30 days; scoped to the merchant and mode; a bad period refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support;
use crate::common;

use collection_support::{customer, monthly, monthly_debicheck, new_mandate, running};
use common::{Database, Socket, TestApp, advance_clock, committed_id, error_of};
use protocol::*;

const OWNER: &str = "owner@karoo.test";

fn ask(from: &str, to: &str, bucket: InsightBucket, method: Option<PaymentMethod>) -> Query {
    Query::GetInsights {
        from: from.into(),
        to: to.into(),
        bucket,
        method,
    }
}

async fn insights(socket: &mut Socket, query: Query) -> Insights {
    match socket.query("i", query).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Insights { insights }),
            ..
        } => *insights,
        other => panic!("{other:?}"),
    }
}

async fn create(socket: &mut Socket, input: PaymentInput) -> String {
    let contract = match &input.mandate {
        Some(MandateChoice::New { input }) => input.contract_reference.clone(),
        Some(MandateChoice::Existing { .. }) | None => String::new(),
    };
    let id = committed_id(
        socket
            .command(
                &contract,
                Command::CreatePayment {
                    input: Box::new(input),
                },
            )
            .await,
    );
    running(socket, &id).await;
    id
}

/// (start, settled, paid, unpaid, disputed, collected count, collected cents)
fn shape(point: &InsightPoint) -> (&str, u32, u32, u32, u32, u32, i64) {
    (
        point.start.as_str(),
        point.settled,
        point.paid,
        point.unpaid,
        point.disputed,
        point.collected_count,
        point.collected_cents,
    )
}

fn busy(points: &[InsightPoint]) -> Vec<(&str, u32, u32, u32, u32, u32, i64)> {
    points.iter().filter(|p| p.settled > 0).map(shape).collect()
}

async fn a_month_of_debits_is_counted_per_bucket_and_method(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let customer_id = customer(&mut tab).await;

    // R100 DebiCheck debits on 5 March (a Thursday): paid, unpaid 02,
    // disputed, rejected by the bank.
    for (account, contract) in [
        ("4000000001", "PAID"),
        ("4000000002", "UNPAID02"),
        ("4000000006", "DISPUTED"),
        ("4000000004", "REJECTED"),
    ] {
        create(&mut tab, monthly_debicheck(&customer_id, account, contract)).await;
    }
    // An EFT debit order the bank returns unpaid 12 (account closed).
    let mut eft = new_mandate(PaymentMethod::EftDebitOrder, "4000000012", "CLOSED");
    eft.allow_tracking = false;
    eft.tracking_days = None;
    eft.approval_window = None;
    eft.maximum_collection_cents = None;
    let closed = create(&mut tab, monthly(&customer_id, eft)).await;
    // A weekly R100 on Wednesdays from 16 March, R125 the first time: only
    // in the forecast.
    let mut weekly = monthly_debicheck(&customer_id, "1201234567", "WEEKLY");
    weekly.first_collection_cents = Some(12_500);
    weekly.interval = Some(Interval::Weekly);
    weekly.day_to_process = Some(3);
    weekly.start_date = Some("2026-03-16".into());
    create(&mut tab, weekly).await;

    advance_clock(&mut tab, &mut watcher, ClockStep::Week, "2026-03-09").await;
    advance_clock(&mut tab, &mut watcher, ClockStep::Week, "2026-03-16").await;

    // By day: rejected on the action date (5th), paid and disputed-after-
    // paid settle the next business day (6th), unpaids two days later (9th).
    let days = insights(
        &mut tab,
        ask("2026-03-01", "2026-03-31", InsightBucket::Day, None),
    )
    .await;
    assert_eq!(days.today, "2026-03-16");
    assert_eq!(days.points.len(), 31);
    assert_eq!(days.points[0].start, "2026-03-01");
    assert_eq!(days.points[30].start, "2026-03-31");
    assert_eq!(
        busy(&days.points),
        vec![
            ("2026-03-05", 1, 0, 1, 0, 0, 0),
            ("2026-03-06", 2, 1, 0, 1, 1, 10_000),
            ("2026-03-09", 2, 0, 2, 0, 0, 0),
        ]
    );
    let sixth = &days.points[5];
    assert_eq!(
        (
            sixth.success_rate_bp,
            sixth.unpaid_ratio_bp,
            sixth.dispute_ratio_bp
        ),
        (Some(5_000), Some(0), Some(5_000))
    );
    assert_eq!(
        (days.unpaid_threshold_bp, days.dispute_threshold_bp),
        (1_000, 50)
    );
    let reasons: Vec<_> = days
        .unpaid_reasons
        .iter()
        .map(|r| (r.code.as_str(), r.count, r.cents))
        .collect();
    assert_eq!(
        reasons,
        vec![
            ("02", 1, 10_000),
            ("12", 1, 10_000),
            ("rejected", 1, 10_000)
        ]
    );

    // By week (Mondays): 23 Feb holds 1 March.
    let weeks = insights(
        &mut tab,
        ask("2026-03-01", "2026-03-31", InsightBucket::Week, None),
    )
    .await;
    let starts: Vec<_> = weeks.points.iter().map(|p| p.start.as_str()).collect();
    assert_eq!(
        starts,
        [
            "2026-02-23",
            "2026-03-02",
            "2026-03-09",
            "2026-03-16",
            "2026-03-23",
            "2026-03-30"
        ]
    );
    assert_eq!(
        busy(&weeks.points),
        vec![
            ("2026-03-02", 3, 1, 1, 1, 1, 10_000),
            ("2026-03-09", 2, 0, 2, 0, 0, 0),
        ]
    );
    let week = &weeks.points[1];
    assert_eq!(
        (
            week.success_rate_bp,
            week.unpaid_ratio_bp,
            week.dispute_ratio_bp
        ),
        (Some(3_333), Some(3_333), Some(3_333))
    );
    // Split by method: the 02 was DebiCheck, the 12 an EFT debit order.
    let split: Vec<_> = weeks.points[2]
        .by_method
        .iter()
        .map(|m| {
            (
                m.method,
                m.settled,
                m.unpaid,
                m.unpaid_ratio_bp,
                m.dispute_ratio_bp,
            )
        })
        .collect();
    assert_eq!(
        split,
        vec![
            (PaymentMethod::Debicheck, 1, 1, 10_000, 0),
            (PaymentMethod::EftDebitOrder, 1, 1, 10_000, 0),
        ]
    );

    // By month: all five.
    let months = insights(
        &mut tab,
        ask("2026-02-01", "2026-04-30", InsightBucket::Month, None),
    )
    .await;
    assert_eq!(
        months.points.iter().map(shape).collect::<Vec<_>>(),
        vec![
            ("2026-02-01", 0, 0, 0, 0, 0, 0),
            ("2026-03-01", 5, 1, 3, 1, 1, 10_000),
            ("2026-04-01", 0, 0, 0, 0, 0, 0),
        ]
    );
    let march = &months.points[1];
    assert_eq!(
        (
            march.success_rate_bp,
            march.unpaid_ratio_bp,
            march.dispute_ratio_bp
        ),
        (Some(2_000), Some(6_000), Some(2_000))
    );
    let debicheck = &march.by_method[0];
    assert_eq!(
        (
            debicheck.method,
            debicheck.settled,
            debicheck.unpaid,
            debicheck.disputed
        ),
        (PaymentMethod::Debicheck, 4, 2, 1)
    );
    assert_eq!(
        (debicheck.unpaid_ratio_bp, debicheck.dispute_ratio_bp),
        (5_000, 2_500)
    );

    // The next 30 days (16 March to 14 April): the weekly on Wednesdays,
    // R125 first; on 7 April (the 5th is Easter Sunday and the 6th Family
    // Day) the paid, disputed, rejected and unpaid monthly debits: four.
    // The unpaid 02 is presented again on the 8th, the next business day,
    // never beside its mandate's regular debit. The closed account's
    // payment stopped.
    let stopped = tab
        .query("p", Query::GetPayment { payment_id: closed })
        .await;
    assert!(
        matches!(&stopped, ServerFrame::Reply { ok: Some(ReplyBody::Payment { payment }), .. }
            if payment.status == PaymentStatus::Stopped),
        "{stopped:?}"
    );
    assert_eq!(
        months
            .forecast
            .iter()
            .map(|d| (d.date.as_str(), d.count, d.cents))
            .collect::<Vec<_>>(),
        FORECAST.to_vec()
    );

    // One method: the EFT debit order's unpaid only, nothing scheduled.
    let eft = insights(
        &mut tab,
        ask(
            "2026-03-01",
            "2026-03-31",
            InsightBucket::Month,
            Some(PaymentMethod::EftDebitOrder),
        ),
    )
    .await;
    assert_eq!(busy(&eft.points), vec![("2026-03-01", 1, 0, 1, 0, 0, 0)]);
    assert_eq!(eft.unpaid_reasons.len(), 1);
    assert_eq!(eft.unpaid_reasons[0].code, "12");
    assert!(eft.forecast.is_empty(), "{:?}", eft.forecast);

    // The live mode and another merchant see none of it.
    let mut live = owner.open(Mode::Live).await;
    let theirs = insights(
        &mut live,
        ask("2026-03-01", "2026-03-31", InsightBucket::Month, None),
    )
    .await;
    assert_eq!(busy(&theirs.points), vec![]);
    assert!(theirs.unpaid_reasons.is_empty() && theirs.forecast.is_empty());
    let stranger = app.merchant("other@elsewhere.test").await;
    let mut other = stranger.open(Mode::Test).await;
    let theirs = insights(
        &mut other,
        ask("2026-03-01", "2026-03-31", InsightBucket::Month, None),
    )
    .await;
    assert_eq!(busy(&theirs.points), vec![]);
    assert!(theirs.unpaid_reasons.is_empty() && theirs.forecast.is_empty());
}

const FORECAST: [(&str, u32, i64); 5] = [
    ("2026-03-18", 1, 12_500),
    ("2026-03-25", 1, 10_000),
    ("2026-04-01", 1, 10_000),
    ("2026-04-07", 4, 40_000),
    ("2026-04-08", 2, 20_000),
];

async fn a_bad_period_is_refused(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    for (from, to, field, code) in [
        ("2026-13-01", "2026-03-31", "from", ErrorCode::InvalidDate),
        ("2026-03-01", "31/03/2026", "to", ErrorCode::InvalidDate),
        (
            "2026-03-31",
            "2026-03-01",
            "to",
            ErrorCode::EndNotAfterStart,
        ),
        (
            "2025-03-01",
            "2026-03-02",
            "to",
            ErrorCode::DateRangeTooLong,
        ),
    ] {
        let refused = tab
            .query("x", ask(from, to, InsightBucket::Day, None))
            .await;
        let fields: Vec<_> = error_of(refused)
            .fields
            .into_iter()
            .map(|f| (f.field, f.code))
            .collect();
        assert_eq!(fields, vec![(field.to_string(), code)], "{from}..{to}");
    }
    // 366 days, both ends counted, is allowed: one point a day.
    let year = insights(
        &mut tab,
        ask("2025-03-01", "2026-03-01", InsightBucket::Day, None),
    )
    .await;
    assert_eq!(year.points.len(), 366);
}

/// A card paid on 2 March: the success rate of every method counts it
/// (100 % on that day, and under the card filter), the debit order ratios
/// have nothing to count, and the quiet days around it have no rate at all
/// rather than 0 %.
async fn a_quiet_day_has_no_rate_and_cards_count_towards_success(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    common::orders::pay_by_card_as(&app, &mut tab, "Lerato Dlamini").await;
    for method in [None, Some(PaymentMethod::Card)] {
        let days = insights(
            &mut tab,
            ask("2026-03-01", "2026-03-03", InsightBucket::Day, method),
        )
        .await;
        let rates: Vec<_> = days
            .points
            .iter()
            .map(|p| (p.start.as_str(), p.payments_settled, p.success_rate_bp))
            .collect();
        assert_eq!(
            rates,
            vec![
                ("2026-03-01", 0, None),
                ("2026-03-02", 1, Some(10_000)),
                ("2026-03-03", 0, None),
            ],
            "{method:?}"
        );
        for point in &days.points {
            assert_eq!(
                (point.unpaid_ratio_bp, point.dispute_ratio_bp),
                (None, None)
            );
        }
    }
}

on_both_databases!(
    a_month_of_debits_is_counted_per_bucket_and_method,
    a_quiet_day_has_no_rate_and_cards_count_towards_success,
    a_bad_period_is_refused,
);
