//! The rules of payouts that need no storage: the fee, what a payout
//! debits, which ledger entries it settles, and when the schedule is due.

use protocol::{PayoutInterval, PayoutSchedule};
use time::{Date, Weekday};

use crate::domain::calendar::{is_business_day, next_business_day_on_or_after};

/// The price of one payout this server charges (README "Payouts").
pub fn payout_fee_cents() -> i64 {
    crate::domain::fees::schedule().payout_cents
}

/// Payouts to a changed settlement account wait this long.
pub const ACCOUNT_HOLD_MS: i64 = 24 * 60 * 60 * 1000;

/// What a payout takes out of the balance and sends to the bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Debit {
    /// Out of the balance in all (`payout` + `payout_fee` entries).
    pub total_cents: i64,
    pub fee_cents: i64,
    /// What reaches the bank account.
    pub net_cents: i64,
}

/// A payout to the settlement account: the fee comes out of the amount.
pub fn settlement_debit(amount_cents: i64) -> Option<Debit> {
    let fee = payout_fee_cents();
    (amount_cents > fee).then_some(Debit {
        total_cents: amount_cents,
        fee_cents: fee,
        net_cents: amount_cents - fee,
    })
}

/// A payout to a customer: the customer gets the amount, the fee comes on top.
pub fn customer_debit(amount_cents: i64) -> Option<Debit> {
    let fee = payout_fee_cents();
    (amount_cents > 0).then(|| Debit {
        total_cents: amount_cents.saturating_add(fee),
        fee_cents: fee,
        net_cents: amount_cents,
    })
}

/// The parts of the open entries (id, what is left of it, signed; oldest
/// first) a payout of `amount` settles, adding up to it exactly. Money
/// owed (negative entries) is settled first, then credits oldest first, the
/// last one in part. None when the open entries do not cover the amount.
pub fn allocate(open: &[(String, i64)], amount: i64) -> Option<Vec<(String, i64)>> {
    let mut lines: Vec<(String, i64)> =
        open.iter().filter(|(_, left)| *left < 0).cloned().collect();
    let mut remaining = amount - lines.iter().map(|(_, left)| left).sum::<i64>();
    for (id, left) in open.iter().filter(|(_, left)| *left > 0) {
        if remaining <= 0 {
            break;
        }
        let part = (*left).min(remaining);
        lines.push((id.clone(), part));
        remaining -= part;
    }
    (remaining == 0).then_some(lines)
}

fn weekday_number(day: Weekday) -> u8 {
    day.number_from_monday()
}

/// Whether the schedule pays out on business day `day`: daily on every
/// business day; weekly on its weekday (or the next business day when that
/// is a holiday); monthly on its day of the month (or the next business day).
pub fn schedule_due(schedule: &PayoutSchedule, day: Date) -> bool {
    if !is_business_day(day) {
        return false;
    }
    let previous_business_day = |target: Date| next_business_day_on_or_after(target) == day;
    match schedule.interval {
        PayoutInterval::Off => false,
        PayoutInterval::Daily => true,
        PayoutInterval::Weekly => {
            // The weekday of this week (Monday-based) that is due.
            let back = i64::from(weekday_number(day.weekday())) - i64::from(schedule.weekday);
            let Some(target) = day.checked_sub(time::Duration::days(back.rem_euclid(7))) else {
                return false;
            };
            previous_business_day(target)
        }
        PayoutInterval::Monthly => {
            let Ok(target) = Date::from_calendar_date(
                day.year(),
                day.month(),
                schedule.day_of_month.clamp(1, 28),
            ) else {
                return false;
            };
            target <= day && previous_business_day(target)
        }
    }
}

/// A schedule as the merchant may set it: weekday 1..5, day 1..28 and a
/// minimum above the fee; `None` names the field that is wrong.
pub fn check_schedule(schedule: &PayoutSchedule) -> Result<PayoutSchedule, &'static str> {
    let mut clean = schedule.clone();
    match schedule.interval {
        PayoutInterval::Weekly if !(1..=5).contains(&schedule.weekday) => return Err("weekday"),
        PayoutInterval::Monthly if !(1..=28).contains(&schedule.day_of_month) => {
            return Err("dayOfMonth");
        }
        _ => {}
    }
    if schedule.interval != PayoutInterval::Off
        && (schedule.minimum_cents <= payout_fee_cents()
            || schedule.minimum_cents > 100_000_000_000)
    {
        return Err("minimumCents");
    }
    if schedule.interval != PayoutInterval::Weekly {
        clean.weekday = 0;
    }
    if schedule.interval != PayoutInterval::Monthly {
        clean.day_of_month = 0;
    }
    Ok(clean)
}
