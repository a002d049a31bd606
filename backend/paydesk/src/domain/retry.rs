//! Unpaid reason codes the banks return, what a schedule does after one,
//! and the day an unpaid 02 is presented again.

use time::Date;

use super::calendar::{add_business_days, next_business_day_on_or_after};

/// A bank's reason for returning a debit unpaid (DOMAIN.md, unpaid codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnpaidCode {
    NotProvidedFor,
    DebitsNotAllowed,
    PaymentStopped,
    AccountFrozen,
    AccountInSequestration,
    AccountInLiquidation,
    AccountClosed,
    AccountTransferredWithinBank,
    AccountTransferredToOtherBank,
    AccountHolderDeceased,
    EffectsNotCleared,
    NoSuchAccount,
    RecallOrWithdrawal,
    NoAuthorityToDebit,
    DebitContravenesAuthority,
    AuthorisationCancelled,
    PreviouslyStopped,
    AccountNumberInvalid,
    NotFicaCompliant,
    ConsecutiveUnpaid,
}

impl UnpaidCode {
    pub const ALL: [UnpaidCode; 20] = [
        UnpaidCode::NotProvidedFor,
        UnpaidCode::DebitsNotAllowed,
        UnpaidCode::PaymentStopped,
        UnpaidCode::AccountFrozen,
        UnpaidCode::AccountInSequestration,
        UnpaidCode::AccountInLiquidation,
        UnpaidCode::AccountClosed,
        UnpaidCode::AccountTransferredWithinBank,
        UnpaidCode::AccountTransferredToOtherBank,
        UnpaidCode::AccountHolderDeceased,
        UnpaidCode::EffectsNotCleared,
        UnpaidCode::NoSuchAccount,
        UnpaidCode::RecallOrWithdrawal,
        UnpaidCode::NoAuthorityToDebit,
        UnpaidCode::DebitContravenesAuthority,
        UnpaidCode::AuthorisationCancelled,
        UnpaidCode::PreviouslyStopped,
        UnpaidCode::AccountNumberInvalid,
        UnpaidCode::NotFicaCompliant,
        UnpaidCode::ConsecutiveUnpaid,
    ];

    /// The two-digit code as banks write it.
    pub fn code(self) -> &'static str {
        match self {
            UnpaidCode::NotProvidedFor => "02",
            UnpaidCode::DebitsNotAllowed => "03",
            UnpaidCode::PaymentStopped => "04",
            UnpaidCode::AccountFrozen => "06",
            UnpaidCode::AccountInSequestration => "08",
            UnpaidCode::AccountInLiquidation => "10",
            UnpaidCode::AccountClosed => "12",
            UnpaidCode::AccountTransferredWithinBank => "14",
            UnpaidCode::AccountTransferredToOtherBank => "16",
            UnpaidCode::AccountHolderDeceased => "18",
            UnpaidCode::EffectsNotCleared => "22",
            UnpaidCode::NoSuchAccount => "26",
            UnpaidCode::RecallOrWithdrawal => "28",
            UnpaidCode::NoAuthorityToDebit => "30",
            UnpaidCode::DebitContravenesAuthority => "32",
            UnpaidCode::AuthorisationCancelled => "34",
            UnpaidCode::PreviouslyStopped => "36",
            UnpaidCode::AccountNumberInvalid => "50",
            UnpaidCode::NotFicaCompliant => "56",
            UnpaidCode::ConsecutiveUnpaid => "60",
        }
    }

    /// English, for logs and the published docs; the web app translates
    /// `unpaid.<code>` itself.
    pub fn description(self) -> &'static str {
        match self {
            UnpaidCode::NotProvidedFor => "Not provided for (insufficient funds)",
            UnpaidCode::DebitsNotAllowed => "Debits not allowed to this account",
            UnpaidCode::PaymentStopped => "Payment stopped by account holder",
            UnpaidCode::AccountFrozen => "Account frozen",
            UnpaidCode::AccountInSequestration => "Account in sequestration",
            UnpaidCode::AccountInLiquidation => "Account in liquidation",
            UnpaidCode::AccountClosed => "Account closed",
            UnpaidCode::AccountTransferredWithinBank => "Account transferred within the bank",
            UnpaidCode::AccountTransferredToOtherBank => "Account transferred to another bank",
            UnpaidCode::AccountHolderDeceased => "Account holder deceased",
            UnpaidCode::EffectsNotCleared => "Effects not cleared",
            UnpaidCode::NoSuchAccount => "No such account",
            UnpaidCode::RecallOrWithdrawal => "Recall or withdrawal",
            UnpaidCode::NoAuthorityToDebit => "No authority to debit (dispute)",
            UnpaidCode::DebitContravenesAuthority => {
                "Debit contravenes payer's authority (dispute)"
            }
            UnpaidCode::AuthorisationCancelled => "Authorisation cancelled (dispute)",
            UnpaidCode::PreviouslyStopped => "Previously stopped",
            UnpaidCode::AccountNumberInvalid => "Account number invalid",
            UnpaidCode::NotFicaCompliant => "Not FICA compliant",
            UnpaidCode::ConsecutiveUnpaid => "Consecutive unpaid rejection",
        }
    }

    /// Reads a code from a bank file; a leading zero may be missing.
    pub fn parse(value: &str) -> Option<UnpaidCode> {
        let value = value.trim();
        if value.is_empty() || value.len() > 2 || !value.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let padded = format!("{value:0>2}");
        UnpaidCode::ALL
            .into_iter()
            .find(|code| code.code() == padded)
    }
}

/// The payer disputed the debit: these count toward the 0.5 % threshold.
pub fn is_dispute(code: UnpaidCode) -> bool {
    matches!(
        code,
        UnpaidCode::NoAuthorityToDebit
            | UnpaidCode::DebitContravenesAuthority
            | UnpaidCode::AuthorisationCancelled
    )
}

/// Only a lack of funds (02) or uncleared effects (22) leaves the mandate
/// usable; every other code needs the payer to sign a new one.
pub fn needs_new_mandate(code: UnpaidCode) -> bool {
    !matches!(
        code,
        UnpaidCode::NotProvidedFor | UnpaidCode::EffectsNotCleared
    )
}

/// How many times an insufficient-funds debit is re-run on the next
/// mandated date before it counts as consecutive unpaids (60). Banks
/// penalise merchants who keep presenting debits that bounce.
pub const MAX_INSUFFICIENT_FUNDS_RETRIES: u32 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetryDecision {
    /// Present the debit again on the schedule's next nominal date.
    RetryOnNextDate,
    /// Stop the schedule; `reason` is the code shown to the merchant.
    StopPayment { reason: UnpaidCode },
}

/// What a schedule does after `code`, given how many 02s came straight
/// before it. Only 02 is re-run; 22 leaves the mandate usable but still
/// stops the schedule until the merchant restarts it.
pub fn decide_after_unpaid(code: UnpaidCode, previous_consecutive_02s: u32) -> RetryDecision {
    match code {
        UnpaidCode::NotProvidedFor if previous_consecutive_02s < MAX_INSUFFICIENT_FUNDS_RETRIES => {
            RetryDecision::RetryOnNextDate
        }
        UnpaidCode::NotProvidedFor => RetryDecision::StopPayment {
            reason: UnpaidCode::ConsecutiveUnpaid,
        },
        reason => RetryDecision::StopPayment { reason },
    }
}

/// How many business days a re-presentation may move to find a day the
/// mandate has no other debit on: about a month, past which something is
/// wrong with the schedules and the merchant decides.
const MAX_REPRESENTATION_MOVE: u32 = 23;

/// When an unpaid 02 goes to the bank again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Representation {
    pub day: Date,
    /// The business day it was due, when the mandate already collects then
    /// and it moved off it.
    pub moved_from: Option<Date>,
}

/// The day an unpaid 02 is presented again. It is due on `due` (the
/// schedule's next mandated date, or the day the merchant retries it), but
/// a payer is never debited twice on one day under one mandate: when
/// `taken` says the mandate already has a debit that day, it moves to the
/// first business day after it that has none. A re-run must still come
/// before `before` (the schedule's date after `due`): later, it would no
/// longer be a re-run on the next date but a second debit beside a later
/// one. `None` when no day is left; the merchant decides then.
pub fn representation_day(
    due: Date,
    before: Option<Date>,
    taken: impl Fn(Date) -> bool,
) -> Option<Representation> {
    let first = next_business_day_on_or_after(due);
    let mut day = first;
    for _ in 0..MAX_REPRESENTATION_MOVE {
        if before.is_some_and(|before| day >= before) {
            return None;
        }
        if !taken(day) {
            return Some(Representation {
                day,
                moved_from: (day != first).then_some(first),
            });
        }
        let next = add_business_days(day, 1);
        if next == day {
            return None;
        }
        day = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_the_domain_brief() {
        let codes: Vec<_> = UnpaidCode::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(
            codes,
            [
                "02", "03", "04", "06", "08", "10", "12", "14", "16", "18", "22", "26", "28", "30",
                "32", "34", "36", "50", "56", "60"
            ]
        );
        for code in UnpaidCode::ALL {
            assert!(!code.description().is_empty());
        }
    }

    #[test]
    fn parsing_codes() {
        for code in UnpaidCode::ALL {
            assert_eq!(UnpaidCode::parse(code.code()), Some(code));
        }
        assert_eq!(UnpaidCode::parse("2"), Some(UnpaidCode::NotProvidedFor));
        assert_eq!(UnpaidCode::parse(" 12 "), Some(UnpaidCode::AccountClosed));
        for bad in ["", "01", "99", "002", "ab", "-2", "+2"] {
            assert_eq!(UnpaidCode::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn disputes_are_30_32_and_34() {
        let disputes: Vec<_> = UnpaidCode::ALL
            .into_iter()
            .filter(|c| is_dispute(*c))
            .map(UnpaidCode::code)
            .collect();
        assert_eq!(disputes, ["30", "32", "34"]);
    }

    #[test]
    fn all_but_02_and_22_need_a_new_mandate() {
        let keep: Vec<_> = UnpaidCode::ALL
            .into_iter()
            .filter(|c| !needs_new_mandate(*c))
            .map(UnpaidCode::code)
            .collect();
        assert_eq!(keep, ["02", "22"]);
    }

    #[test]
    fn insufficient_funds_retries_twice_then_becomes_60() {
        let code = UnpaidCode::NotProvidedFor;
        assert_eq!(decide_after_unpaid(code, 0), RetryDecision::RetryOnNextDate);
        assert_eq!(decide_after_unpaid(code, 1), RetryDecision::RetryOnNextDate);
        for previous in [2, 3, 10] {
            assert_eq!(
                decide_after_unpaid(code, previous),
                RetryDecision::StopPayment {
                    reason: UnpaidCode::ConsecutiveUnpaid
                }
            );
        }
    }

    #[test]
    fn every_other_code_stops_with_itself() {
        for code in UnpaidCode::ALL {
            if code == UnpaidCode::NotProvidedFor {
                continue;
            }
            for previous in [0, 1, 5] {
                assert_eq!(
                    decide_after_unpaid(code, previous),
                    RetryDecision::StopPayment { reason: code },
                    "{code:?}"
                );
            }
        }
    }

    use crate::domain::calendar::{Interval, Schedule, is_business_day};
    use proptest::prelude::*;
    use std::collections::BTreeSet;
    use time::macros::date;

    #[test]
    fn a_free_day_keeps_its_date_and_a_taken_one_moves_past_holidays() {
        let none = |_: Date| false;
        let thursday = date!(2026 - 04 - 02);
        assert_eq!(
            representation_day(thursday, None, none),
            Some(Representation {
                day: thursday,
                moved_from: None
            })
        );
        // A weekend due date is the next business day, not a move.
        assert_eq!(
            representation_day(date!(2026 - 04 - 04), None, none).map(|r| (r.day, r.moved_from)),
            Some((date!(2026 - 04 - 07), None))
        );
        // Good Friday, the weekend and Family Day pass: Tuesday the 7th.
        let taken = |day: Date| day == thursday;
        assert_eq!(
            representation_day(thursday, None, taken),
            Some(Representation {
                day: date!(2026 - 04 - 07),
                moved_from: Some(thursday)
            })
        );
        // Not on or after the schedule's next date.
        assert_eq!(
            representation_day(thursday, Some(date!(2026 - 04 - 07)), taken),
            None
        );
        // Nothing free within a month: the merchant decides.
        assert_eq!(representation_day(thursday, None, |_| true), None);
    }

    /// Every schedule the scheduler plans, with days to process across
    /// month ends and holidays, from starts across two years.
    fn schedules() -> Vec<(Schedule, bool)> {
        let mut all = Vec::new();
        for interval in [Interval::Weekly, Interval::Fortnightly, Interval::Monthly] {
            for day in 1..=interval.max_day_to_process() {
                for month in 0..24 {
                    let start = crate::domain::calendar::add_months(date!(2026 - 01 - 01), month)
                        .and_then(|d| d.replace_day(1 + (month as u8 * 5) % 27).ok());
                    let Some(start) = start else { continue };
                    for adjust in [false, true] {
                        if let Ok(schedule) = Schedule::new(interval, day, start, None) {
                            all.push((schedule, adjust));
                        }
                    }
                }
            }
        }
        all
    }

    /// What holds of a re-presentation planned for the collection `due`
    /// (taken by its own schedule), with `taken` the mandate's debit days.
    fn check(due: Date, before: Date, taken: &BTreeSet<Date>) -> Result<(), String> {
        let planned = representation_day(due, Some(before), |d| taken.contains(&d))
            .ok_or_else(|| format!("no day for {due} before {before}"))?;
        let first = next_business_day_on_or_after(due);
        let day = planned.day;
        let fits = is_business_day(day)
            && !taken.contains(&day)
            && day > first
            && day < before
            && planned.moved_from == Some(first);
        if !fits {
            return Err(format!("{due}: {planned:?} (before {before})"));
        }
        // The first free business day: every one in between is taken.
        let mut between = add_business_days(first, 1);
        while between < day {
            if !taken.contains(&between) {
                return Err(format!("{due}: {day} skips the free {between}"));
            }
            between = add_business_days(between, 1);
        }
        Ok(())
    }

    #[test]
    fn a_re_presentation_never_shares_a_day_with_the_schedules_debits() {
        for (schedule, adjust) in schedules() {
            let dates: Vec<_> = schedule.collection_dates(adjust).take(14).collect();
            let taken: BTreeSet<Date> = dates.iter().map(|c| c.action).collect();
            for pair in dates.windows(2) {
                let (due, before) = (pair[0].action, pair[1].action);
                if let Err(problem) = check(due, before, &taken) {
                    panic!("{schedule:?} adjust {adjust}: {problem}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Other payments of the mandate take days of their own.
        #[test]
        fn nor_with_another_payments_debits(
            pick in 0usize..10_000,
            others in prop::collection::btree_set(0i64..400, 0..40),
        ) {
            let all = schedules();
            let (schedule, adjust) = all[pick % all.len()];
            let dates: Vec<_> = schedule.collection_dates(adjust).take(14).collect();
            let mut taken: BTreeSet<Date> = dates.iter().map(|c| c.action).collect();
            let start = schedule.start();
            taken.extend(others.iter().filter_map(|days| {
                start.checked_add(time::Duration::days(*days))
            }));
            for pair in dates.windows(2) {
                let (due, before) = (pair[0].action, pair[1].action);
                match representation_day(due, Some(before), |d| taken.contains(&d)) {
                    // Only when every business day up to the next date is another's.
                    None => {
                        let mut day = next_business_day_on_or_after(due);
                        while day < before {
                            prop_assert!(taken.contains(&day), "{} was free before {}", day, before);
                            day = add_business_days(day, 1);
                        }
                    }
                    Some(_) => {
                        let checked = check(due, before, &taken);
                        prop_assert!(checked.is_ok(), "{:?}", checked);
                    }
                }
            }
        }
    }
}
