//! Recurring collections: the nominal dates an interval and day to process
//! give between a start and an optional end date, and their action dates.

use time::{Date, Month};

use super::{action_date, collection_date, days_from, next_business_day_on_or_after};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interval {
    Weekly,
    Fortnightly,
    Monthly,
    Quarterly,
    Biannually,
    Annually,
}

impl Interval {
    pub const ALL: [Interval; 6] = [
        Interval::Weekly,
        Interval::Fortnightly,
        Interval::Monthly,
        Interval::Quarterly,
        Interval::Biannually,
        Interval::Annually,
    ];

    /// Weekly days run Monday (1) to Sunday (7); fortnightly days 1 to 14
    /// cover two weeks from a Monday; the rest count days of the month.
    pub fn max_day_to_process(self) -> u8 {
        match self {
            Interval::Weekly => 7,
            Interval::Fortnightly => 14,
            _ => 31,
        }
    }

    /// Weekly and fortnightly schedules step by days, the rest by months.
    fn days(self) -> Option<i64> {
        match self {
            Interval::Weekly => Some(7),
            Interval::Fortnightly => Some(14),
            _ => None,
        }
    }

    fn months(self) -> Option<i32> {
        match self {
            Interval::Weekly | Interval::Fortnightly => None,
            Interval::Monthly => Some(1),
            Interval::Quarterly => Some(3),
            Interval::Biannually => Some(6),
            Interval::Annually => Some(12),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScheduleError {
    DayToProcessOutOfRange { max: u8 },
    EndNotAfterStart,
}

/// A nominal collection date and the business day the bank debits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollectionDate {
    pub nominal: Date,
    pub action: Date,
}

/// A recurring collection: every interval on the day to process, from the
/// start date up to and including the end date.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    interval: Interval,
    day_to_process: u8,
    start: Date,
    end: Option<Date>,
}

impl Schedule {
    pub fn new(
        interval: Interval,
        day_to_process: u8,
        start: Date,
        end: Option<Date>,
    ) -> Result<Schedule, ScheduleError> {
        let max = interval.max_day_to_process();
        if !(1..=max).contains(&day_to_process) {
            return Err(ScheduleError::DayToProcessOutOfRange { max });
        }
        if end.is_some_and(|end| end <= start) {
            return Err(ScheduleError::EndNotAfterStart);
        }
        Ok(Schedule {
            interval,
            day_to_process,
            start,
            end,
        })
    }

    pub fn interval(&self) -> Interval {
        self.interval
    }

    pub fn day_to_process(&self) -> u8 {
        self.day_to_process
    }

    pub fn start(&self) -> Date {
        self.start
    }

    pub fn end(&self) -> Option<Date> {
        self.end
    }

    /// The nominal dates in order; endless when there is no end date.
    pub fn nominal_dates(&self) -> impl Iterator<Item = Date> + '_ {
        (0u32..)
            .map(|n| self.nth(n))
            .take_while(|date| date.is_some_and(|date| self.end.is_none_or(|end| date <= end)))
            .flatten()
    }

    /// Nominal and action dates. An action date moved back before the start
    /// date would debit before the mandate begins, so it moves forward then.
    pub fn collection_dates(
        &self,
        allow_date_adjustment: bool,
    ) -> impl Iterator<Item = CollectionDate> + '_ {
        self.nominal_dates().map(move |nominal| {
            let mut action = action_date(nominal, allow_date_adjustment);
            if action < self.start {
                action = next_business_day_on_or_after(nominal);
            }
            CollectionDate { nominal, action }
        })
    }

    /// The first nominal date after `date`: where an unpaid 02 re-runs.
    pub fn next_nominal_after(&self, date: Date) -> Option<Date> {
        self.nominal_dates().find(|nominal| *nominal > date)
    }

    /// The `n`th nominal date counted from the first, computed from the first
    /// rather than the previous so a day 31 clipped to 28 February returns
    /// to 31 in March.
    fn nth(&self, n: u32) -> Option<Date> {
        let n = i64::from(n);
        if let Some(period) = self.interval.days() {
            return days_from(self.first_by_days(period)?, n.checked_mul(period)?);
        }
        let months = self.interval.months()?;
        let index = self
            .first_month()?
            .checked_add(i32::try_from(n).ok()?.checked_mul(months)?)?;
        self.in_month(index)
    }

    fn first_by_days(&self, period: i64) -> Option<Date> {
        let from_monday = i64::from(self.start.weekday().number_days_from_monday());
        let monday = days_from(self.start, -from_monday)?;
        let candidate = days_from(monday, i64::from(self.day_to_process) - 1)?;
        // A weekly day already past this week comes next week; a fortnightly
        // day already past this fortnight comes in the next one.
        if candidate < self.start {
            days_from(candidate, period)
        } else {
            Some(candidate)
        }
    }

    /// Months counted from year 0, so month arithmetic is plain addition.
    fn first_month(&self) -> Option<i32> {
        let index = self.start.year() * 12 + i32::from(u8::from(self.start.month())) - 1;
        let date = self.in_month(index)?;
        if date < self.start {
            index.checked_add(1)
        } else {
            Some(index)
        }
    }

    fn in_month(&self, index: i32) -> Option<Date> {
        let year = index.div_euclid(12);
        let month = Month::try_from(u8::try_from(index.rem_euclid(12) + 1).ok()?).ok()?;
        collection_date(year, month, self.day_to_process)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    fn first(schedule: &Schedule, count: usize) -> Vec<Date> {
        schedule.nominal_dates().take(count).collect()
    }

    fn schedule(interval: Interval, day: u8, start: Date, end: Option<Date>) -> Schedule {
        Schedule::new(interval, day, start, end)
            .unwrap_or_else(|e| panic!("schedule {interval:?} {day}: {e:?}"))
    }

    #[test]
    fn day_to_process_ranges() {
        let start = date!(2026 - 01 - 01);
        for interval in Interval::ALL {
            let max = interval.max_day_to_process();
            for day in [0, max + 1] {
                assert_eq!(
                    Schedule::new(interval, day, start, None),
                    Err(ScheduleError::DayToProcessOutOfRange { max })
                );
            }
            assert!(Schedule::new(interval, 1, start, None).is_ok());
            assert!(Schedule::new(interval, max, start, None).is_ok());
        }
        assert_eq!(Interval::Weekly.max_day_to_process(), 7);
        assert_eq!(Interval::Fortnightly.max_day_to_process(), 14);
        assert_eq!(Interval::Monthly.max_day_to_process(), 31);
    }

    #[test]
    fn end_date_must_follow_start() {
        let start = date!(2026 - 01 - 01);
        for end in [start, date!(2025 - 12 - 31)] {
            assert_eq!(
                Schedule::new(Interval::Monthly, 1, start, Some(end)),
                Err(ScheduleError::EndNotAfterStart)
            );
        }
    }

    #[test]
    fn weekly_dates() {
        // Thursday 1 January 2026; day 1 is Monday, 4 Thursday, 7 Sunday.
        let start = date!(2026 - 01 - 01);
        assert_eq!(
            first(&schedule(Interval::Weekly, 1, start, None), 3),
            [
                date!(2026 - 01 - 05),
                date!(2026 - 01 - 12),
                date!(2026 - 01 - 19)
            ]
        );
        assert_eq!(
            first(&schedule(Interval::Weekly, 4, start, None), 2),
            [date!(2026 - 01 - 01), date!(2026 - 01 - 08)]
        );
        assert_eq!(
            first(&schedule(Interval::Weekly, 7, start, None), 2),
            [date!(2026 - 01 - 04), date!(2026 - 01 - 11)]
        );
    }

    #[test]
    fn fortnightly_dates_count_from_the_monday_of_the_start_week() {
        // Wednesday 7 January 2026; its week starts Monday 5 January.
        let start = date!(2026 - 01 - 07);
        assert_eq!(
            first(&schedule(Interval::Fortnightly, 1, start, None), 2),
            [date!(2026 - 01 - 19), date!(2026 - 02 - 02)]
        );
        assert_eq!(
            first(&schedule(Interval::Fortnightly, 3, start, None), 2),
            [date!(2026 - 01 - 07), date!(2026 - 01 - 21)]
        );
        assert_eq!(
            first(&schedule(Interval::Fortnightly, 12, start, None), 2),
            [date!(2026 - 01 - 16), date!(2026 - 01 - 30)]
        );
    }

    #[test]
    fn monthly_day_31_follows_month_ends_and_leap_years() {
        let start = date!(2027 - 12 - 15);
        assert_eq!(
            first(&schedule(Interval::Monthly, 31, start, None), 6),
            [
                date!(2027 - 12 - 31),
                date!(2028 - 01 - 31),
                date!(2028 - 02 - 29),
                date!(2028 - 03 - 31),
                date!(2028 - 04 - 30),
                date!(2028 - 05 - 31),
            ]
        );
    }

    #[test]
    fn monthly_starts_next_month_when_the_day_has_passed() {
        let start = date!(2026 - 01 - 20);
        assert_eq!(
            first(&schedule(Interval::Monthly, 15, start, None), 2),
            [date!(2026 - 02 - 15), date!(2026 - 03 - 15)]
        );
        assert_eq!(
            first(&schedule(Interval::Monthly, 20, start, None), 1),
            [date!(2026 - 01 - 20)]
        );
    }

    #[test]
    fn quarterly_biannual_and_annual_dates() {
        let start = date!(2026 - 01 - 20);
        assert_eq!(
            first(&schedule(Interval::Quarterly, 31, start, None), 4),
            [
                date!(2026 - 01 - 31),
                date!(2026 - 04 - 30),
                date!(2026 - 07 - 31),
                date!(2026 - 10 - 31),
            ]
        );
        assert_eq!(
            first(&schedule(Interval::Biannually, 10, start, None), 3),
            [
                date!(2026 - 02 - 10),
                date!(2026 - 08 - 10),
                date!(2027 - 02 - 10)
            ]
        );
        assert_eq!(
            first(
                &schedule(Interval::Annually, 29, date!(2028 - 02 - 01), None),
                3
            ),
            [
                date!(2028 - 02 - 29),
                date!(2029 - 02 - 28),
                date!(2030 - 02 - 28)
            ]
        );
    }

    #[test]
    fn end_date_is_inclusive() {
        let start = date!(2026 - 01 - 01);
        let ending = schedule(Interval::Monthly, 15, start, Some(date!(2026 - 04 - 15)));
        assert_eq!(
            ending.nominal_dates().collect::<Vec<_>>(),
            [
                date!(2026 - 01 - 15),
                date!(2026 - 02 - 15),
                date!(2026 - 03 - 15),
                date!(2026 - 04 - 15),
            ]
        );
        let short = schedule(Interval::Weekly, 1, start, Some(date!(2026 - 01 - 04)));
        assert_eq!(short.nominal_dates().count(), 0);
    }

    #[test]
    fn collection_dates_move_off_non_business_days() {
        // 16 December 2029 is a Sunday holiday and the 17th its Monday.
        let start = date!(2029 - 11 - 01);
        let monthly = schedule(Interval::Monthly, 16, start, Some(date!(2029 - 12 - 31)));
        let forward: Vec<_> = monthly.collection_dates(false).collect();
        assert_eq!(
            forward,
            [
                CollectionDate {
                    nominal: date!(2029 - 11 - 16),
                    action: date!(2029 - 11 - 16),
                },
                CollectionDate {
                    nominal: date!(2029 - 12 - 16),
                    action: date!(2029 - 12 - 18),
                },
            ]
        );
        let back: Vec<_> = monthly.collection_dates(true).map(|c| c.action).collect();
        assert_eq!(back, [date!(2029 - 11 - 16), date!(2029 - 12 - 14)]);
    }

    #[test]
    fn adjusted_action_date_never_precedes_the_start() {
        // Saturday 1 August 2026: moving back would land on Friday 31 July.
        let start = date!(2026 - 08 - 01);
        let monthly = schedule(Interval::Monthly, 1, start, None);
        let dates: Vec<_> = monthly.collection_dates(true).take(2).collect();
        assert_eq!(dates[0].action, date!(2026 - 08 - 03));
        assert_eq!(dates[1].action, date!(2026 - 09 - 01));
    }

    #[test]
    fn next_nominal_date_after_a_failed_one() {
        let monthly = schedule(Interval::Monthly, 31, date!(2026 - 01 - 01), None);
        assert_eq!(
            monthly.next_nominal_after(date!(2026 - 01 - 31)),
            Some(date!(2026 - 02 - 28))
        );
        let ending = schedule(
            Interval::Monthly,
            31,
            date!(2026 - 01 - 01),
            Some(date!(2026 - 02 - 27)),
        );
        assert_eq!(ending.next_nominal_after(date!(2026 - 01 - 31)), None);
    }
}
