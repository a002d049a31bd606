//! The insights screen: collections, outcomes and the regulator's ratios
//! per period bucket and method, unpaid reasons, and the next 30 days'
//! scheduled collections. The database does the counting (see
//! `store::insights`); this folds its groups into the screen's shape.

use std::collections::BTreeMap;

use protocol::{
    ErrorCode, ForecastDay, InsightBucket, InsightPoint, Insights, Interval, MethodRatios,
    PaymentMethod, ReplyBody, UnpaidReason,
};
use time::{Date, Duration};

use super::Scope;
use super::calendar::{Schedule, add_months, iso_date, parse_iso_date};
use super::payments::{next_collection, schedule_interval};
use super::transactions::{DISPUTE_THRESHOLD_BP, UNPAID_THRESHOLD_BP};
use crate::error::{AppError, AppResult};
use crate::store::Db;
use crate::store::clocks;
use crate::store::insights::{self as store, ScheduleGroup, SettledGroup};
use crate::store::sql::from_wire_name;

use super::settled::{Outcomes, count_of};

/// The longest period one answer covers (a year of days at most).
pub const MAX_DAYS: i64 = 366;
/// The forecast covers today and the days after it, this many in all.
pub const FORECAST_DAYS: i64 = 30;
/// The reason code shown for debits the bank rejected before processing.
pub const REJECTED: &str = "rejected";

/// The first day of the bucket holding `day`.
fn bucket_of(day: Date, bucket: InsightBucket) -> Date {
    match bucket {
        InsightBucket::Day => day,
        InsightBucket::Week => {
            day - Duration::days(i64::from(day.weekday().number_days_from_monday()))
        }
        InsightBucket::Month => day.replace_day(1).unwrap_or(day),
    }
}

fn next_bucket(start: Date, bucket: InsightBucket) -> Option<Date> {
    match bucket {
        InsightBucket::Day => start.next_day(),
        InsightBucket::Week => start.checked_add(Duration::days(7)),
        InsightBucket::Month => add_months(start, 1),
    }
}

/// Every bucket start from the one holding `from` to the one holding `to`.
fn bucket_starts(from: Date, to: Date, bucket: InsightBucket) -> Vec<Date> {
    let mut starts = Vec::new();
    let mut start = Some(bucket_of(from, bucket));
    while let Some(day) = start.filter(|day| *day <= to) {
        starts.push(day);
        start = next_bucket(day, bucket);
    }
    starts
}

/// Folds the database's groups into one point per bucket (empty ones too)
/// and the period's unpaid reasons, most frequent first.
fn fold(starts: &[Date], groups: &[SettledGroup]) -> (Vec<InsightPoint>, Vec<UnpaidReason>) {
    let mut buckets: BTreeMap<String, (Outcomes, BTreeMap<String, Outcomes>)> = starts
        .iter()
        .map(|d| (iso_date(*d), Default::default()))
        .collect();
    let mut reasons: BTreeMap<String, (u32, i64)> = BTreeMap::new();
    for g in groups {
        let count = count_of(g.count);
        let (total, methods) = buckets.entry(g.bucket.clone()).or_default();
        total.add(&g.method, &g.status, count, g.cents);
        methods
            .entry(g.method.clone())
            .or_default()
            .add(&g.method, &g.status, count, g.cents);
        // Unpaid reasons are the bank's returns of debit orders
        // (`settled.rs`): a card declined at checkout is not one.
        let debit_order =
            PaymentMethod::parse(&g.method).is_some_and(PaymentMethod::is_debit_order);
        let code = match g.status.as_str() {
            "unpaid" if debit_order => g.unpaid_code.clone(),
            "rejected_by_bank" if debit_order => Some(REJECTED.to_string()),
            _ => None,
        };
        if let Some(code) = code {
            let entry = reasons.entry(code).or_default();
            entry.0 += count;
            entry.1 += g.cents;
        }
    }
    let points = buckets
        .into_iter()
        .map(|(start, (total, methods))| InsightPoint {
            start,
            collected_cents: total.collected_cents,
            collected_count: total.collected,
            settled: total.settled(),
            paid: total.paid,
            unpaid: total.unpaid,
            disputed: total.disputed,
            payments_settled: total.payments_settled,
            payments_paid: total.payments_paid,
            success_rate_bp: total.success_rate_bp(),
            unpaid_ratio_bp: total.ratio_of_settled(total.unpaid),
            dispute_ratio_bp: total.ratio_of_settled(total.disputed),
            by_method: methods
                .into_iter()
                .filter_map(|(method, o)| {
                    let method = from_wire_name::<PaymentMethod>(&method)?;
                    // The ratios are of debit orders (`settled.rs`).
                    method.is_debit_order().then_some(())?;
                    Some(MethodRatios {
                        method,
                        settled: o.settled(),
                        unpaid: o.unpaid,
                        disputed: o.disputed,
                        unpaid_ratio_bp: o.ratio_bp(o.unpaid),
                        dispute_ratio_bp: o.ratio_bp(o.disputed),
                    })
                })
                .collect(),
        })
        .collect();
    let mut reasons: Vec<UnpaidReason> = reasons
        .into_iter()
        .map(|(code, (count, cents))| UnpaidReason { code, count, cents })
        .collect();
    reasons.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.code.cmp(&b.code)));
    (points, reasons)
}

/// The group's schedule, for the dates after its next one.
fn schedule_of(group: &ScheduleGroup) -> Option<Schedule> {
    let interval = from_wire_name::<Interval>(group.interval.as_deref()?)?;
    let day = u8::try_from(group.day_to_process?).ok()?;
    let start = parse_iso_date(group.start_date.as_deref()?)?;
    let end = group.end_date.as_deref().and_then(parse_iso_date);
    Schedule::new(schedule_interval(interval), day, start, end).ok()
}

/// Plays each group's schedule forward as the scheduler would: its next
/// date raises the group's next debits, each later collection date the
/// recurring payments' regular amount. A date the scheduler has not played
/// yet (before today) is raised when it next plays, so it counts on today.
fn forecast(today: Date, groups: &[ScheduleGroup]) -> Vec<ForecastDay> {
    let last = today + Duration::days(FORECAST_DAYS - 1);
    let mut days: BTreeMap<Date, (u32, i64)> = BTreeMap::new();
    let mut add = |date: Date, count: i64, cents: i64| {
        if date <= last && count > 0 {
            let entry = days.entry(date.max(today)).or_default();
            entry.0 += count_of(count);
            entry.1 += cents;
        }
    };
    for group in groups {
        let Some(next) = parse_iso_date(&group.next_action_date) else {
            continue;
        };
        add(next, group.next_count, group.next_cents);
        if group.recurring == 0 {
            continue;
        }
        let (Some(schedule), Some(mut nominal)) = (
            schedule_of(group),
            group.next_nominal_date.as_deref().and_then(parse_iso_date),
        ) else {
            continue;
        };
        // The scheduler plans from the business day after the one it played.
        let mut from = next.next_day().unwrap_or(next);
        while let Some(c) =
            next_collection(&schedule, group.allow_date_adjustment, Some(nominal), from)
        {
            if c.action > last {
                break;
            }
            add(c.action, group.recurring, group.recurring_cents);
            nominal = c.nominal;
            from = c.action.next_day().unwrap_or(c.action);
        }
    }
    days.into_iter()
        .map(|(date, (count, cents))| ForecastDay {
            date: iso_date(date),
            count,
            cents,
        })
        .collect()
}

pub async fn get_insights(
    db: &Db,
    scope: &Scope,
    (from, to): (&str, &str),
    bucket: InsightBucket,
    method: Option<PaymentMethod>,
) -> AppResult<ReplyBody> {
    let start =
        parse_iso_date(from).ok_or_else(|| AppError::field("from", ErrorCode::InvalidDate))?;
    let end = parse_iso_date(to).ok_or_else(|| AppError::field("to", ErrorCode::InvalidDate))?;
    if end < start {
        return Err(AppError::field("to", ErrorCode::EndNotAfterStart));
    }
    if (end - start).whole_days() >= MAX_DAYS {
        return Err(AppError::field("to", ErrorCode::DateRangeTooLong));
    }
    let offset = clocks::read_clock(&db.pool, &scope.merchant_id, scope.mode)
        .await?
        .map_or(0, |c| c.offset_days);
    let today = scope.clock.today(scope.mode, offset);
    let (from, to) = (iso_date(start), iso_date(end));
    let groups = store::settled_groups(
        db,
        &scope.merchant_id,
        scope.mode,
        (&from, &to),
        bucket,
        method,
    )
    .await?;
    let (points, unpaid_reasons) = fold(&bucket_starts(start, end, bucket), &groups);
    let through = iso_date(today + Duration::days(FORECAST_DAYS - 1));
    let schedules =
        store::schedule_groups(db, &scope.merchant_id, scope.mode, &through, method).await?;
    Ok(ReplyBody::Insights {
        insights: Box::new(Insights {
            today: iso_date(today),
            from,
            to,
            bucket,
            points,
            unpaid_reasons,
            unpaid_threshold_bp: UNPAID_THRESHOLD_BP,
            dispute_threshold_bp: DISPUTE_THRESHOLD_BP,
            forecast: forecast(today, &schedules),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn weeks_start_on_monday_and_months_on_the_first() {
        // 2026-11-25 is a Wednesday.
        assert_eq!(
            bucket_of(date!(2026 - 11 - 25), InsightBucket::Week),
            date!(2026 - 11 - 23)
        );
        assert_eq!(
            bucket_of(date!(2026 - 11 - 22), InsightBucket::Week),
            date!(2026 - 11 - 16)
        );
        assert_eq!(
            bucket_of(date!(2026 - 11 - 25), InsightBucket::Month),
            date!(2026 - 11 - 01)
        );
        let starts = bucket_starts(
            date!(2026 - 01 - 31),
            date!(2026 - 03 - 01),
            InsightBucket::Month,
        );
        assert_eq!(
            starts,
            vec![
                date!(2026 - 01 - 01),
                date!(2026 - 02 - 01),
                date!(2026 - 03 - 01)
            ]
        );
    }

    fn group(bucket: &str, method: &str, status: &str, code: Option<&str>, n: i64) -> SettledGroup {
        SettledGroup {
            bucket: bucket.into(),
            method: method.into(),
            status: status.into(),
            unpaid_code: code.map(Into::into),
            count: n,
            cents: n * 100,
        }
    }

    #[test]
    fn folds_groups_into_points_and_reasons() {
        let starts = [date!(2026 - 11 - 01), date!(2026 - 11 - 02)];
        let groups = [
            group("2026-11-01", "debicheck", "paid", None, 7),
            group("2026-11-01", "debicheck", "unpaid", Some("02"), 2),
            group("2026-11-01", "eft_debit_order", "reversed", None, 1),
            group("2026-11-01", "eft_debit_order", "rejected_by_bank", None, 1),
            group("2026-11-01", "eft_debit_order", "unpaid", Some("12"), 2),
            group("2026-11-01", "card", "paid", None, 2),
            group("2026-11-01", "card", "rejected_by_bank", None, 3),
        ];
        let (points, reasons) = fold(&starts, &groups);
        assert_eq!(points.len(), 2);
        let p = &points[0];
        assert_eq!((p.settled, p.paid, p.unpaid, p.disputed), (13, 7, 5, 1));
        // Cards bring money in, but their declines are not unpaid debits.
        assert_eq!((p.collected_count, p.collected_cents), (9, 900));
        // The rate counts every method: 9 paid of 18 settled, cards' 2 of 5 too.
        assert_eq!(p.success_rate_bp, Some(5_000));
        assert_eq!(p.by_method.len(), 2);
        assert_eq!(p.by_method[1].unpaid_ratio_bp, 7_500);
        assert_eq!(p.by_method[1].dispute_ratio_bp, 2_500);
        assert_eq!(points[1].settled, 0);
        let codes: Vec<_> = reasons.iter().map(|r| (r.code.as_str(), r.count)).collect();
        assert_eq!(codes, vec![("02", 2), ("12", 2), ("rejected", 1)]);
    }
}
