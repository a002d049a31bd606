//! The South African business calendar: public holidays, business days and
//! the dates a recurring collection falls on. Banks only process debits on
//! business days, so every action date passes through here.

use protocol::Language;
use time::macros::date;
use time::{Date, Duration, Month, Weekday};

mod schedule;
pub use schedule::{CollectionDate, Interval, Schedule, ScheduleError};

/// A public holiday, named by a stable key the web app translates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Holiday {
    NewYearsDay,
    HumanRightsDay,
    GoodFriday,
    FamilyDay,
    FreedomDay,
    WorkersDay,
    YouthDay,
    NationalWomensDay,
    HeritageDay,
    DayOfReconciliation,
    ChristmasDay,
    DayOfGoodwill,
    /// A once-off day the President declared in the Government Gazette.
    Declared {
        key: &'static str,
    },
}

impl Holiday {
    pub fn key(self) -> &'static str {
        match self {
            Holiday::NewYearsDay => "new_years_day",
            Holiday::HumanRightsDay => "human_rights_day",
            Holiday::GoodFriday => "good_friday",
            Holiday::FamilyDay => "family_day",
            Holiday::FreedomDay => "freedom_day",
            Holiday::WorkersDay => "workers_day",
            Holiday::YouthDay => "youth_day",
            Holiday::NationalWomensDay => "national_womens_day",
            Holiday::HeritageDay => "heritage_day",
            Holiday::DayOfReconciliation => "day_of_reconciliation",
            Holiday::ChristmasDay => "christmas_day",
            Holiday::DayOfGoodwill => "day_of_goodwill",
            Holiday::Declared { key } => key,
        }
    }
}

/// One day off. `observed` marks the Monday that replaces a Sunday holiday.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicHoliday {
    pub date: Date,
    pub holiday: Holiday,
    pub observed: bool,
}

/// Once-off holidays (mostly election days) are gazetted case by case and no
/// rule predicts them: add each one here when it is declared.
const DECLARED_HOLIDAYS: &[(Date, &str)] = &[
    (date!(2016 - 08 - 03), "local_government_elections_2016"),
    (date!(2016 - 12 - 27), "declared_2016_12_27"),
    (date!(2019 - 05 - 08), "national_elections_2019"),
    (date!(2021 - 11 - 01), "local_government_elections_2021"),
    (date!(2023 - 12 - 15), "rugby_world_cup_2023"),
    (date!(2024 - 05 - 29), "national_elections_2024"),
];

/// Easter Sunday in the Gregorian calendar (the anonymous Gregorian
/// algorithm of Meeus, Jones and Butcher).
pub fn easter_sunday(year: i32) -> Option<Date> {
    let a = year.rem_euclid(19);
    let b = year.div_euclid(100);
    let c = year.rem_euclid(100);
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15).rem_euclid(30);
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k).rem_euclid(7);
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    let month = Month::try_from(u8::try_from(month).ok()?).ok()?;
    Date::from_calendar_date(year, month, u8::try_from(day).ok()?).ok()
}

fn fixed(year: i32, month: Month, day: u8, holiday: Holiday) -> Option<(Date, Holiday)> {
    Some((Date::from_calendar_date(year, month, day).ok()?, holiday))
}

fn days_from(date: Date, days: i64) -> Option<Date> {
    date.checked_add(Duration::days(days))
}

/// Every public holiday of `year` in date order, with the Public Holidays
/// Act rule that a holiday on a Sunday gives the Monday after it off. When
/// that Monday is already a holiday (Christmas on a Sunday) no extra day is
/// added; the President may still declare one.
pub fn public_holidays(year: i32) -> Vec<PublicHoliday> {
    let easter = easter_sunday(year);
    let statutory = [
        fixed(year, Month::January, 1, Holiday::NewYearsDay),
        fixed(year, Month::March, 21, Holiday::HumanRightsDay),
        easter
            .and_then(|e| days_from(e, -2))
            .map(|d| (d, Holiday::GoodFriday)),
        easter
            .and_then(|e| days_from(e, 1))
            .map(|d| (d, Holiday::FamilyDay)),
        fixed(year, Month::April, 27, Holiday::FreedomDay),
        fixed(year, Month::May, 1, Holiday::WorkersDay),
        fixed(year, Month::June, 16, Holiday::YouthDay),
        fixed(year, Month::August, 9, Holiday::NationalWomensDay),
        fixed(year, Month::September, 24, Holiday::HeritageDay),
        fixed(year, Month::December, 16, Holiday::DayOfReconciliation),
        fixed(year, Month::December, 25, Holiday::ChristmasDay),
        fixed(year, Month::December, 26, Holiday::DayOfGoodwill),
    ];
    let mut days: Vec<PublicHoliday> = statutory
        .into_iter()
        .flatten()
        .map(|(date, holiday)| PublicHoliday {
            date,
            holiday,
            observed: false,
        })
        .collect();
    let mondays: Vec<PublicHoliday> = days
        .iter()
        .filter(|day| day.date.weekday() == Weekday::Sunday)
        .filter_map(|day| {
            let monday = day.date.next_day()?;
            let taken = days.iter().any(|other| other.date == monday);
            (!taken).then_some(PublicHoliday {
                date: monday,
                holiday: day.holiday,
                observed: true,
            })
        })
        .collect();
    days.extend(mondays);
    days.extend(
        DECLARED_HOLIDAYS
            .iter()
            .filter(|(date, _)| date.year() == year)
            .map(|&(date, key)| PublicHoliday {
                date,
                holiday: Holiday::Declared { key },
                observed: false,
            }),
    );
    days.sort_by_key(|day| day.date);
    days
}

pub fn is_public_holiday(date: Date) -> bool {
    public_holidays(date.year())
        .iter()
        .any(|day| day.date == date)
}

pub fn is_business_day(date: Date) -> bool {
    !matches!(date.weekday(), Weekday::Saturday | Weekday::Sunday) && !is_public_holiday(date)
}

/// `date` itself when it is a business day, else the first one after it.
/// At the very end of the representable calendar it gives up and returns
/// the last date it reached rather than panic.
pub fn next_business_day_on_or_after(date: Date) -> Date {
    let mut day = date;
    while !is_business_day(day) {
        match day.next_day() {
            Some(next) => day = next,
            None => break,
        }
    }
    day
}

/// `date` itself when it is a business day, else the last one before it.
pub fn previous_business_day_on_or_before(date: Date) -> Date {
    let mut day = date;
    while !is_business_day(day) {
        match day.previous_day() {
            Some(previous) => day = previous,
            None => break,
        }
    }
    day
}

/// The business day `count` business days after `date` (before it when
/// negative). Zero gives `date` itself, even on a weekend, so callers choose
/// how to settle a non-business start.
pub fn add_business_days(date: Date, count: i64) -> Date {
    let mut day = date;
    for _ in 0..count.unsigned_abs() {
        let step = if count > 0 {
            day.next_day().map(next_business_day_on_or_after)
        } else {
            day.previous_day().map(previous_business_day_on_or_before)
        };
        match step {
            Some(next) => day = next,
            None => break,
        }
    }
    day
}

/// The day of `month` a monthly collection falls on: day 31, or any day the
/// month lacks, means its last day (30 April, 28 or 29 February). `None`
/// for day 0 or past 31.
pub fn collection_date(year: i32, month: Month, day_to_process: u8) -> Option<Date> {
    if !(1..=31).contains(&day_to_process) {
        return None;
    }
    let day = day_to_process.min(month.length(year));
    Date::from_calendar_date(year, month, day).ok()
}

/// The date the bank is asked to debit. A non-business day moves forward to
/// the next business day, or back to the previous one when the mandate
/// allows date adjustment, so the payer is debited before the due date
/// rather than after it. Never back into the month before: a monthly debit
/// due on New Year's Day would otherwise be taken on 31 December, beside
/// December's own, and January would have none.
pub fn action_date(nominal: Date, allow_date_adjustment: bool) -> Date {
    if allow_date_adjustment {
        let earlier = previous_business_day_on_or_before(nominal);
        if earlier.month() == nominal.month() {
            return earlier;
        }
    }
    next_business_day_on_or_after(nominal)
}

/// A `YYYY-MM-DD` date, as the wire and the database carry business dates.
pub fn iso_date(date: Date) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        date.year(),
        u8::from(date.month()),
        date.day()
    )
}

/// Reads `YYYY-MM-DD`; anything else, or a day that does not exist, is None.
pub fn parse_iso_date(value: &str) -> Option<Date> {
    let value = value.trim();
    let bytes = value.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let year: i32 = value.get(0..4)?.parse().ok()?;
    let month: u8 = value.get(5..7)?.parse().ok()?;
    let day: u8 = value.get(8..10)?.parse().ok()?;
    Date::from_calendar_date(year, Month::try_from(month).ok()?, day).ok()
}

/// A `YYYY-MM-DD` date as a payer reads it in prose: `1 April 2026`, or in
/// Afrikaans `1 April 2026` with its own month names. Anything unreadable is
/// given back as it came, rather than hidden.
pub fn long_date(iso: &str, language: Language) -> String {
    const EN: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    const AFR: [&str; 12] = [
        "Januarie",
        "Februarie",
        "Maart",
        "April",
        "Mei",
        "Junie",
        "Julie",
        "Augustus",
        "September",
        "Oktober",
        "November",
        "Desember",
    ];
    let Some(date) = parse_iso_date(iso) else {
        return iso.to_string();
    };
    let months = match language {
        Language::En => EN,
        Language::Afr => AFR,
    };
    let month = months[usize::from(u8::from(date.month())) - 1];
    format!("{} {month} {}", date.day(), date.year())
}

/// The same day `months` later, or the month's last day when it is shorter.
pub fn add_months(date: Date, months: i32) -> Option<Date> {
    let index = date.year() * 12 + i32::from(u8::from(date.month())) - 1 + months;
    let (year, month) = (index.div_euclid(12), index.rem_euclid(12) + 1);
    let month = Month::try_from(u8::try_from(month).ok()?).ok()?;
    let last = month.length(year);
    Date::from_calendar_date(year, month, date.day().min(last)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_dates_are_written_out_in_the_payers_language() {
        assert_eq!(long_date("2026-04-01", Language::En), "1 April 2026");
        assert_eq!(long_date("2026-03-15", Language::Afr), "15 Maart 2026");
        assert_eq!(long_date("2026-12-31", Language::Afr), "31 Desember 2026");
        assert_eq!(long_date("not a date", Language::En), "not a date");
    }

    #[test]
    fn iso_dates_round_trip_and_refuse_impossible_days() {
        assert_eq!(iso_date(date!(2026 - 03 - 05)), "2026-03-05");
        assert_eq!(parse_iso_date("2028-02-29"), Some(date!(2028 - 02 - 29)));
        for bad in [
            "2027-02-29",
            "2026-13-01",
            "2026-1-01",
            "05/03/2026",
            "",
            "2026-03-05x",
        ] {
            assert_eq!(parse_iso_date(bad), None, "{bad}");
        }
        assert_eq!(
            add_months(date!(2026 - 01 - 31), 1),
            Some(date!(2026 - 02 - 28))
        );
        assert_eq!(
            add_months(date!(2026 - 12 - 15), 1),
            Some(date!(2027 - 01 - 15))
        );
    }

    fn holidays_on(year: i32) -> Vec<Date> {
        public_holidays(year).iter().map(|day| day.date).collect()
    }

    #[test]
    fn easter_sundays() {
        for (year, easter) in [
            (2008, date!(2008 - 03 - 23)),
            (2024, date!(2024 - 03 - 31)),
            (2025, date!(2025 - 04 - 20)),
            (2026, date!(2026 - 04 - 05)),
            (2027, date!(2027 - 03 - 28)),
            (2028, date!(2028 - 04 - 16)),
            (2029, date!(2029 - 04 - 01)),
            (2030, date!(2030 - 04 - 21)),
            (2038, date!(2038 - 04 - 25)),
            (2285, date!(2285 - 03 - 22)),
        ] {
            assert_eq!(easter_sunday(year), Some(easter), "{year}");
        }
    }

    /// Every holiday of 2026-2030 as month-day. The Sunday ones and their
    /// Mondays: Women's Day 2026 (10 Aug), Human Rights Day 2027 (22 Mar),
    /// Day of Goodwill 2027 (27 Dec), Heritage Day 2028 (25 Sep), Day of
    /// Reconciliation 2029 (17 Dec), Youth Day 2030 (17 Jun).
    const HOLIDAYS: [(i32, &[&str]); 5] = [
        (
            2026,
            &[
                "01-01", "03-21", "04-03", "04-06", "04-27", "05-01", "06-16", "08-09", "08-10",
                "09-24", "12-16", "12-25", "12-26",
            ],
        ),
        (
            2027,
            &[
                "01-01", "03-21", "03-22", "03-26", "03-29", "04-27", "05-01", "06-16", "08-09",
                "09-24", "12-16", "12-25", "12-26", "12-27",
            ],
        ),
        (
            2028,
            &[
                "01-01", "03-21", "04-14", "04-17", "04-27", "05-01", "06-16", "08-09", "09-24",
                "09-25", "12-16", "12-25", "12-26",
            ],
        ),
        (
            2029,
            &[
                "01-01", "03-21", "03-30", "04-02", "04-27", "05-01", "06-16", "08-09", "09-24",
                "12-16", "12-17", "12-25", "12-26",
            ],
        ),
        (
            2030,
            &[
                "01-01", "03-21", "04-19", "04-22", "04-27", "05-01", "06-16", "06-17", "08-09",
                "09-24", "12-16", "12-25", "12-26",
            ],
        ),
    ];

    fn month_day(year: i32, text: &str) -> Date {
        let (month, day) = text
            .split_once('-')
            .and_then(|(m, d)| Some((m.parse::<u8>().ok()?, d.parse::<u8>().ok()?)))
            .unwrap_or_else(|| panic!("bad month-day {text}"));
        Month::try_from(month)
            .ok()
            .and_then(|month| Date::from_calendar_date(year, month, day).ok())
            .unwrap_or_else(|| panic!("bad date {year}-{text}"))
    }

    #[test]
    fn every_holiday_2026_to_2030() {
        for (year, days) in HOLIDAYS {
            let expected: Vec<Date> = days.iter().map(|day| month_day(year, day)).collect();
            assert_eq!(holidays_on(year), expected, "{year}");
            let observed = public_holidays(year).iter().filter(|d| d.observed).count();
            let sundays = expected
                .iter()
                .filter(|d| d.weekday() == Weekday::Sunday)
                .count();
            assert_eq!(observed, sundays, "{year}");
            for day in &expected {
                assert!(!is_business_day(*day), "{day}");
            }
        }
    }

    #[test]
    fn holidays_are_named_and_mondays_marked_observed() {
        let days = public_holidays(2026);
        let good_friday = days.iter().find(|day| day.date == date!(2026 - 04 - 03));
        assert_eq!(
            good_friday.map(|day| day.holiday),
            Some(Holiday::GoodFriday)
        );
        let family_day = days.iter().find(|day| day.date == date!(2026 - 04 - 06));
        assert_eq!(family_day.map(|day| day.holiday), Some(Holiday::FamilyDay));
        let observed: Vec<_> = days.iter().filter(|day| day.observed).collect();
        assert_eq!(observed.len(), 1);
        assert_eq!(observed[0].date, date!(2026 - 08 - 10));
        assert_eq!(observed[0].holiday, Holiday::NationalWomensDay);
        assert_eq!(observed[0].holiday.key(), "national_womens_day");
        let good_friday_2027 = public_holidays(2027)
            .into_iter()
            .find(|day| day.holiday == Holiday::GoodFriday);
        assert_eq!(
            good_friday_2027.map(|day| day.date),
            Some(date!(2027 - 03 - 26))
        );
    }

    #[test]
    fn freedom_day_2025_on_a_sunday_gives_monday_off() {
        assert!(is_public_holiday(date!(2025 - 04 - 27)));
        assert!(is_public_holiday(date!(2025 - 04 - 28)));
        assert!(!is_business_day(date!(2025 - 04 - 28)));
        assert!(is_business_day(date!(2025 - 04 - 29)));
    }

    #[test]
    fn christmas_on_a_sunday_adds_no_third_day() {
        // 2033: Christmas on Sunday, the Monday is already the Day of Goodwill.
        assert_eq!(date!(2033 - 12 - 25).weekday(), Weekday::Sunday);
        assert!(is_public_holiday(date!(2033 - 12 - 26)));
        assert!(is_business_day(date!(2033 - 12 - 27)));
        assert_eq!(
            public_holidays(2033)
                .iter()
                .filter(|day| day.date.month() == Month::December)
                .count(),
            3
        );
    }

    #[test]
    fn declared_holidays_count() {
        assert!(!is_business_day(date!(2024 - 05 - 29)));
        assert!(is_public_holiday(date!(2023 - 12 - 15)));
        assert!(is_business_day(date!(2024 - 05 - 28)));
    }

    #[test]
    fn saturday_holidays_do_not_move() {
        // Day of Goodwill 2026 is a Saturday; the Monday after is ordinary.
        assert!(is_public_holiday(date!(2026 - 12 - 26)));
        assert!(is_business_day(date!(2026 - 12 - 28)));
    }

    #[test]
    fn weekends_are_not_business_days() {
        assert!(!is_business_day(date!(2026 - 07 - 04)));
        assert!(!is_business_day(date!(2026 - 07 - 05)));
        assert!(is_business_day(date!(2026 - 07 - 03)));
        assert!(is_business_day(date!(2026 - 07 - 06)));
    }

    #[test]
    fn next_and_previous_business_days() {
        // Easter 2026: Good Friday 3 April to Family Day 6 April.
        assert_eq!(
            next_business_day_on_or_after(date!(2026 - 04 - 03)),
            date!(2026 - 04 - 07)
        );
        assert_eq!(
            previous_business_day_on_or_before(date!(2026 - 04 - 06)),
            date!(2026 - 04 - 02)
        );
        let business_day = date!(2026 - 04 - 08);
        assert_eq!(next_business_day_on_or_after(business_day), business_day);
        assert_eq!(
            previous_business_day_on_or_before(business_day),
            business_day
        );
        // Christmas 2026 (Friday) and the Saturday Day of Goodwill.
        assert_eq!(
            next_business_day_on_or_after(date!(2026 - 12 - 25)),
            date!(2026 - 12 - 28)
        );
    }

    #[test]
    fn adding_business_days() {
        let thursday = date!(2026 - 04 - 02);
        assert_eq!(add_business_days(thursday, 0), thursday);
        assert_eq!(add_business_days(thursday, 1), date!(2026 - 04 - 07));
        assert_eq!(add_business_days(thursday, 2), date!(2026 - 04 - 08));
        assert_eq!(add_business_days(date!(2026 - 04 - 07), -1), thursday);
        // From a Saturday, the first business day counts as one.
        assert_eq!(
            add_business_days(date!(2026 - 07 - 04), 1),
            date!(2026 - 07 - 06)
        );
        assert_eq!(
            add_business_days(date!(2026 - 07 - 04), -1),
            date!(2026 - 07 - 03)
        );
        assert_eq!(
            add_business_days(date!(2026 - 07 - 06), 10),
            date!(2026 - 07 - 20)
        );
    }

    #[test]
    fn day_31_is_the_last_day_of_the_month() {
        assert_eq!(
            collection_date(2026, Month::February, 31),
            Some(date!(2026 - 02 - 28))
        );
        assert_eq!(
            collection_date(2028, Month::February, 31),
            Some(date!(2028 - 02 - 29))
        );
        assert_eq!(
            collection_date(2028, Month::February, 30),
            Some(date!(2028 - 02 - 29))
        );
        assert_eq!(
            collection_date(2026, Month::February, 29),
            Some(date!(2026 - 02 - 28))
        );
        assert_eq!(
            collection_date(2100, Month::February, 31),
            Some(date!(2100 - 02 - 28))
        );
        assert_eq!(
            collection_date(2000, Month::February, 31),
            Some(date!(2000 - 02 - 29))
        );
        assert_eq!(
            collection_date(2026, Month::April, 31),
            Some(date!(2026 - 04 - 30))
        );
        assert_eq!(
            collection_date(2026, Month::May, 31),
            Some(date!(2026 - 05 - 31))
        );
        assert_eq!(
            collection_date(2026, Month::May, 15),
            Some(date!(2026 - 05 - 15))
        );
        assert_eq!(collection_date(2026, Month::May, 0), None);
        assert_eq!(collection_date(2026, Month::May, 32), None);
    }

    #[test]
    fn an_adjusted_debit_stays_in_its_month() {
        // New Year's Day 2027 is a Friday: back would be 31 December.
        assert_eq!(
            action_date(date!(2027 - 01 - 01), true),
            date!(2027 - 01 - 04)
        );
        // Sunday 1 August 2027: back would be Friday 30 July.
        assert_eq!(
            action_date(date!(2027 - 08 - 01), true),
            date!(2027 - 08 - 02)
        );
        // Within the month it still moves back.
        assert_eq!(
            action_date(date!(2026 - 12 - 26), true),
            date!(2026 - 12 - 24)
        );
    }

    #[test]
    fn action_dates() {
        let saturday = date!(2026 - 08 - 08);
        // Women's Day weekend: Sat 8, Sun 9, observed Mon 10 August 2026.
        assert_eq!(action_date(saturday, false), date!(2026 - 08 - 11));
        assert_eq!(action_date(saturday, true), date!(2026 - 08 - 07));
        assert_eq!(
            action_date(date!(2026 - 08 - 10), false),
            date!(2026 - 08 - 11)
        );
        assert_eq!(
            action_date(date!(2026 - 08 - 10), true),
            date!(2026 - 08 - 07)
        );
        let tuesday = date!(2026 - 08 - 11);
        assert_eq!(action_date(tuesday, false), tuesday);
        assert_eq!(action_date(tuesday, true), tuesday);
    }
}
