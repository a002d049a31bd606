//! Cell values as the columns need them. Spreadsheets store what people
//! type in their own way: `0181` typed as a number arrives as 181, amounts
//! as floats, dates as native date cells. Each reader here turns a cell into
//! the text or number the rules check, or the error code of the column.

use protocol::ErrorCode;
use time::{Date, Month};

use super::cells::Cell;
use super::lookups::{Lookup, NO, YES};
use crate::domain::calendar::iso_date;

/// Text as written; a numeric cell reads as its integer when it is one.
pub fn text(cell: &Cell) -> String {
    cell.display().trim().to_string()
}

/// A fixed-length digit field (postal code 4, branch code 6, an SA ID 13):
/// a numeric cell lost its leading zeros, so they are put back. Text cells
/// are taken as written.
pub fn padded_digits(cell: &Cell, width: usize) -> String {
    match cell {
        Cell::Number(n) if n.fract() == 0.0 && *n >= 0.0 && *n < 1e17 => {
            format!("{:0width$}", *n as u64)
        }
        other => text(other),
    }
}

/// Money with at most 12 digits, 2 after the point, as cents. Text may use
/// a point or a comma for the decimals, and spaces between thousands.
pub fn cents(cell: &Cell) -> Result<Option<i64>, ErrorCode> {
    match cell {
        Cell::Number(n) => {
            let scaled = n * 100.0;
            let rounded = scaled.round();
            if !n.is_finite() || (scaled - rounded).abs() > 1e-6 || rounded.abs() >= 1e12 {
                return Err(ErrorCode::InvalidAmount);
            }
            Ok(Some(rounded as i64))
        }
        Cell::Date(_) | Cell::Bool(_) => Err(ErrorCode::InvalidAmount),
        other => {
            let raw: String = text(other).chars().filter(|c| !c.is_whitespace()).collect();
            if raw.is_empty() {
                return Ok(None);
            }
            decimal_cents(&raw)
                .map(Some)
                .ok_or(ErrorCode::InvalidAmount)
        }
    }
}

fn decimal_cents(raw: &str) -> Option<i64> {
    let raw = if raw.contains('.') {
        raw.to_string()
    } else {
        raw.replacen(',', ".", 1)
    };
    let (whole, fraction) = raw.split_once('.').unwrap_or((&raw, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > 2 {
        return None;
    }
    if whole.trim_start_matches('0').len() > 10 {
        return None;
    }
    let whole: i64 = whole.parse().ok()?;
    let fraction: i64 = format!("{fraction:0<2}").parse().ok()?;
    Some(whole * 100 + fraction)
}

/// A decimal rate as text for the rate rule (8 digits, 5 after the point).
pub fn rate(cell: &Cell) -> String {
    match cell {
        Cell::Number(n) if n.is_finite() => {
            let fixed = format!("{n:.5}");
            fixed
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string()
        }
        other => text(other).replace(',', "."),
    }
}

/// A whole number (day to process, tracking days).
pub fn whole_number(cell: &Cell) -> Result<Option<i64>, ErrorCode> {
    match cell {
        Cell::Number(n) if n.fract() == 0.0 && n.abs() < 1e9 => Ok(Some(*n as i64)),
        Cell::Number(_) | Cell::Date(_) | Cell::Bool(_) => Err(ErrorCode::InvalidNumber),
        other => {
            let raw = text(other);
            if raw.is_empty() {
                return Ok(None);
            }
            raw.parse::<i64>()
                .map(Some)
                .map_err(|_| ErrorCode::InvalidNumber)
        }
    }
}

/// `yes` / `no` in any case (or a spreadsheet boolean); blank is no.
pub fn yes_no(cell: &Cell) -> Result<bool, ErrorCode> {
    match cell {
        Cell::Bool(value) => Ok(*value),
        other => {
            let raw = text(other);
            if raw.is_empty() || raw.eq_ignore_ascii_case(NO) {
                Ok(false)
            } else if raw.eq_ignore_ascii_case(YES) {
                Ok(true)
            } else {
                Err(ErrorCode::InvalidBoolean)
            }
        }
    }
}

/// A date as `YYYY-MM-DD`, from a native date cell or from text written
/// `YYYY-MM-DD`, `YYYY/MM/DD` or `DD/MM/YYYY`; it must be a real date.
pub fn date(cell: &Cell) -> Result<Option<String>, ErrorCode> {
    match cell {
        Cell::Date(date) => Ok(Some(iso_date(*date))),
        Cell::Number(_) | Cell::Bool(_) => Err(ErrorCode::InvalidSpreadsheetDate),
        other => {
            let raw = text(other);
            if raw.is_empty() {
                return Ok(None);
            }
            parse_written_date(&raw)
                .map(|d| Some(iso_date(d)))
                .ok_or(ErrorCode::InvalidSpreadsheetDate)
        }
    }
}

fn parse_written_date(raw: &str) -> Option<Date> {
    let parts: Vec<&str> = raw.split(['-', '/']).collect();
    let [a, b, c] = parts.as_slice() else {
        return None;
    };
    let all_digits = parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()));
    let (year, month, day) = match (a.len(), b.len(), c.len()) {
        (4, 2, 2) => (*a, *b, *c),
        // Day first only with slashes: 01-02-2027 is ambiguous, 01/02/2027 is South African.
        (2, 2, 4) if raw.contains('/') && !raw.contains('-') => (*c, *b, *a),
        _ => return None,
    };
    if !all_digits || (a.len() == 4 && raw.contains('-') && raw.contains('/')) {
        return None;
    }
    let month = Month::try_from(month.parse::<u8>().ok()?).ok()?;
    Date::from_calendar_date(year.parse().ok()?, month, day.parse().ok()?).ok()
}

/// A lookup column: blank is none; anything else must be on the list.
pub fn choice<T: Copy + serde::Serialize>(
    cell: &Cell,
    list: &Lookup<T>,
) -> Result<Option<T>, ErrorCode> {
    let raw = text(cell);
    if raw.is_empty() {
        return Ok(None);
    }
    list.find(&raw).map(Some).ok_or(ErrorCode::InvalidChoice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::imports::lookups::BANKS;
    use protocol::BankId;
    use time::macros::date;

    fn t(value: &str) -> Cell {
        Cell::Text(value.into())
    }

    #[test]
    fn fixed_length_digits_get_their_leading_zeros_back_from_numeric_cells_only() {
        let cases = [
            (Cell::Number(181.0), 4, "0181"),
            (Cell::Number(51001.0), 6, "051001"),
            (Cell::Number(632005.0), 6, "632005"),
            (t("0181"), 4, "0181"),
            (t("181"), 4, "181"),
            (Cell::Number(1015009087.0), 13, "0001015009087"),
        ];
        for (cell, width, expected) in cases {
            assert_eq!(padded_digits(&cell, width), expected, "{cell:?}");
        }
    }

    #[test]
    fn numeric_cells_read_as_text_lose_no_digits_and_gain_no_point_zero() {
        assert_eq!(text(&Cell::Number(4000000001.0)), "4000000001");
        assert_eq!(text(&Cell::Number(8801235111088.0)), "8801235111088");
        assert_eq!(text(&Cell::Number(2.5)), "2.5");
        assert_eq!(text(&Cell::Date(date!(2027 - 01 - 31))), "2027-01-31");
    }

    #[test]
    fn amounts_take_two_decimals_at_most_and_twelve_digits() {
        let accepted = [
            (Cell::Number(100.0), 10_000),
            (Cell::Number(0.01), 1),
            (Cell::Number(1234.56), 123_456),
            (Cell::Number(9_999_999_999.99), 999_999_999_999),
            (t("1234.5"), 123_450),
            (t("1 234,56"), 123_456),
            (t("0.10"), 10),
            (t("9999999999.99"), 999_999_999_999),
        ];
        for (cell, expected) in accepted {
            assert_eq!(cents(&cell), Ok(Some(expected)), "{cell:?}");
        }
        let refused = [
            Cell::Number(1.005),
            Cell::Number(10_000_000_000.0),
            t("12.345"),
            t("10000000000.00"),
            t("R100"),
            t("1.2.3"),
            t("-5"),
            t("."),
            Cell::Bool(true),
        ];
        for cell in refused {
            assert_eq!(cents(&cell), Err(ErrorCode::InvalidAmount), "{cell:?}");
        }
        assert_eq!(cents(&Cell::Empty), Ok(None));
    }

    #[test]
    fn dates_come_native_or_in_three_written_forms_and_must_exist() {
        let accepted = [
            (Cell::Date(date!(2027 - 02 - 28)), "2027-02-28"),
            (t("2027-02-28"), "2027-02-28"),
            (t("2027/02/28"), "2027-02-28"),
            (t("28/02/2027"), "2027-02-28"),
            (t("29/02/2028"), "2028-02-29"),
        ];
        for (cell, expected) in accepted {
            assert_eq!(date(&cell), Ok(Some(expected.to_string())), "{cell:?}");
        }
        let refused = [
            t("2027-02-29"),
            t("31/04/2027"),
            t("28-02-2027"),
            t("2027-2-8"),
            t("2027/02-28"),
            t("tomorrow"),
            Cell::Number(46000.0),
        ];
        for cell in refused {
            assert_eq!(
                date(&cell),
                Err(ErrorCode::InvalidSpreadsheetDate),
                "{cell:?}"
            );
        }
    }

    #[test]
    fn booleans_are_yes_or_no_in_any_case() {
        for (cell, expected) in [
            (t("yes"), true),
            (t("YES"), true),
            (t(" No "), false),
            (Cell::Empty, false),
            (Cell::Bool(true), true),
        ] {
            assert_eq!(yes_no(&cell), Ok(expected), "{cell:?}");
        }
        for cell in [t("y"), t("true"), t("1"), Cell::Number(1.0)] {
            assert_eq!(yes_no(&cell), Err(ErrorCode::InvalidBoolean), "{cell:?}");
        }
    }

    #[test]
    fn whole_numbers_and_rates() {
        assert_eq!(whole_number(&Cell::Number(31.0)), Ok(Some(31)));
        assert_eq!(whole_number(&t(" 7 ")), Ok(Some(7)));
        assert_eq!(
            whole_number(&Cell::Number(1.5)),
            Err(ErrorCode::InvalidNumber)
        );
        assert_eq!(whole_number(&t("seven")), Err(ErrorCode::InvalidNumber));
        assert_eq!(rate(&Cell::Number(5.25)), "5.25");
        assert_eq!(rate(&Cell::Number(12.0)), "12");
        assert_eq!(rate(&t("7,5")), "7.5");
    }

    #[test]
    fn choices_must_be_on_the_list() {
        assert_eq!(choice(&t("Absa"), &BANKS), Ok(Some(BankId::Absa)));
        assert_eq!(choice(&Cell::Empty, &BANKS), Ok(None));
        assert_eq!(
            choice(&t("Barclays"), &BANKS),
            Err(ErrorCode::InvalidChoice)
        );
    }
}
