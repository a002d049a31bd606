//! The business date. Banks work in South African dates, so "today" is the
//! date in Johannesburg (UTC+2, no daylight saving). Test mode adds the
//! merchant's test clock offset; a pinned date replaces the calendar for
//! demos and tests.

use protocol::{ClockStep, Mode};
use time::{Date, Duration, OffsetDateTime};

use super::calendar::add_months;

/// South Africa Standard Time is UTC+2 all year.
const SAST_OFFSET_HOURS: i64 = 2;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BusinessClock {
    pinned: Option<Date>,
}

impl BusinessClock {
    pub fn new(pinned: Option<Date>) -> BusinessClock {
        BusinessClock { pinned }
    }

    /// Today's date on the calendar, before any test clock.
    pub fn calendar_today(&self) -> Date {
        self.pinned.unwrap_or_else(|| {
            (OffsetDateTime::now_utc() + Duration::hours(SAST_OFFSET_HOURS)).date()
        })
    }

    /// A stream's today: live mode never moves off the calendar.
    pub fn today(&self, mode: Mode, offset_days: i64) -> Date {
        let today = self.calendar_today();
        match mode {
            Mode::Live => today,
            Mode::Test => today
                .checked_add(Duration::days(offset_days))
                .unwrap_or(today),
        }
    }
}

/// How many days a test clock step moves from `today`: a month is to the
/// same day next month (or its last day).
pub fn step_days(today: Date, step: ClockStep) -> i64 {
    match step {
        ClockStep::Day => 1,
        ClockStep::Week => 7,
        ClockStep::Month => add_months(today, 1).map_or(30, |next| (next - today).whole_days()),
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    #[test]
    fn a_month_step_lands_on_the_same_day_or_the_month_end() {
        assert_eq!(step_days(date!(2026 - 03 - 10), ClockStep::Month), 31);
        assert_eq!(step_days(date!(2026 - 01 - 31), ClockStep::Month), 28);
        assert_eq!(step_days(date!(2026 - 03 - 10), ClockStep::Week), 7);
    }

    #[test]
    fn live_mode_ignores_the_test_offset() {
        let clock = BusinessClock::new(Some(date!(2026 - 06 - 01)));
        assert_eq!(clock.today(Mode::Live, 9), date!(2026 - 06 - 01));
        assert_eq!(clock.today(Mode::Test, 9), date!(2026 - 06 - 10));
    }
}
