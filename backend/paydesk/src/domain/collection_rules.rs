//! Field rules shared by the payment form and the spreadsheet import
//! (DOMAIN.md, column rules). Each returns the error code for its field.

use protocol::ErrorCode;
use time::Date;

use super::calendar::parse_iso_date;

/// The largest amount with 12 digits of which 2 after the point.
const MAX_AMOUNT_CENTS: i64 = 999_999_999_999;

/// Amounts are cents above zero with at most 12 digits.
pub fn amount(cents: i64) -> Result<(), ErrorCode> {
    if (1..=MAX_AMOUNT_CENTS).contains(&cents) {
        Ok(())
    } else {
        Err(ErrorCode::InvalidAmount)
    }
}

/// A decimal rate: at most 8 digits, of which at most 5 after the point.
pub fn adjustment_rate(value: &str) -> Result<(), ErrorCode> {
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let ok = !whole.is_empty()
        && digits(whole)
        && digits(fraction)
        && fraction.len() <= 5
        && whole.len() + fraction.len() <= 8
        && (!value.contains('.') || !fraction.is_empty());
    if ok {
        Ok(())
    } else {
        Err(ErrorCode::InvalidRate)
    }
}

/// Letters, digits and dashes, 1 to `max`.
pub fn reference(value: &str, max: usize) -> Result<(), ErrorCode> {
    if value.is_empty() {
        return Err(ErrorCode::Required);
    }
    if value.chars().count() > max {
        return Err(ErrorCode::TooLong);
    }
    if value.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        Ok(())
    } else {
        Err(ErrorCode::InvalidCharacters)
    }
}

/// Contract references: letters and digits only, up to 14.
pub fn contract_reference(value: &str) -> Result<(), ErrorCode> {
    reference(value, 14)?;
    if value.contains('-') {
        return Err(ErrorCode::InvalidCharacters);
    }
    Ok(())
}

/// The name on the payer's statement: up to 10 letters, digits and spaces.
pub fn abbreviated_name(value: &str) -> Result<(), ErrorCode> {
    if value.chars().count() > 10 {
        return Err(ErrorCode::TooLong);
    }
    if value.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ') {
        Ok(())
    } else {
        Err(ErrorCode::InvalidCharacters)
    }
}

/// Max payment tracking days: 1 to 10.
pub fn tracking_days(days: u8) -> Result<(), ErrorCode> {
    if (1..=10).contains(&days) {
        Ok(())
    } else {
        Err(ErrorCode::TrackingDaysOutOfRange)
    }
}

/// A required `YYYY-MM-DD` date, today or later.
pub fn future_date(value: Option<&str>, today: Date) -> Result<Date, ErrorCode> {
    let value = value.map(str::trim).filter(|v| !v.is_empty());
    let date = parse_iso_date(value.ok_or(ErrorCode::Required)?).ok_or(ErrorCode::InvalidDate)?;
    if date < today {
        return Err(ErrorCode::DateInPast);
    }
    Ok(date)
}

/// The maximum collection amount: at least the amount; for DebiCheck at
/// most one and a half times it.
pub fn maximum_collection(maximum: i64, amount: i64, debicheck: bool) -> Result<(), ErrorCode> {
    self::amount(maximum)?;
    if maximum < amount {
        return Err(ErrorCode::MaximumBelowAmount);
    }
    // 1.5x in integers: 2 * max <= 3 * amount.
    if debicheck && maximum.saturating_mul(2) > amount.saturating_mul(3) {
        return Err(ErrorCode::MaximumAboveDebicheckLimit);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    #[test]
    fn amounts_at_each_boundary() {
        assert_eq!(amount(0), Err(ErrorCode::InvalidAmount));
        assert_eq!(amount(-5), Err(ErrorCode::InvalidAmount));
        assert_eq!(amount(1), Ok(()));
        assert_eq!(amount(MAX_AMOUNT_CENTS), Ok(()));
        assert_eq!(amount(MAX_AMOUNT_CENTS + 1), Err(ErrorCode::InvalidAmount));
    }

    #[test]
    fn rates_keep_8_digits_and_5_decimals() {
        for ok in ["5", "5.5", "123.12345", "12345678", "0.00001"] {
            assert_eq!(adjustment_rate(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "5.",
            ".5",
            "1.123456",
            "1234.12345",
            "123456789",
            "-1",
            "1,5",
            "abc",
        ] {
            assert_eq!(adjustment_rate(bad), Err(ErrorCode::InvalidRate), "{bad}");
        }
    }

    #[test]
    fn references_and_contract_references() {
        assert_eq!(reference("INV-2026-001", 30), Ok(()));
        assert_eq!(reference("", 30), Err(ErrorCode::Required));
        assert_eq!(reference(&"A".repeat(31), 30), Err(ErrorCode::TooLong));
        assert_eq!(reference("INV 1", 30), Err(ErrorCode::InvalidCharacters));
        assert_eq!(contract_reference("GYM2026ABCDEF1"), Ok(()));
        assert_eq!(
            contract_reference("GYM2026ABCDEF12"),
            Err(ErrorCode::TooLong)
        );
        assert_eq!(
            contract_reference("GYM-1"),
            Err(ErrorCode::InvalidCharacters)
        );
    }

    #[test]
    fn tracking_days_are_1_to_10() {
        assert_eq!(tracking_days(0), Err(ErrorCode::TrackingDaysOutOfRange));
        assert_eq!(tracking_days(1), Ok(()));
        assert_eq!(tracking_days(10), Ok(()));
        assert_eq!(tracking_days(11), Err(ErrorCode::TrackingDaysOutOfRange));
    }

    #[test]
    fn dates_must_be_real_and_not_past() {
        let today = date!(2026 - 05 - 04);
        assert_eq!(future_date(Some("2026-05-04"), today), Ok(today));
        assert_eq!(
            future_date(Some("2026-05-03"), today),
            Err(ErrorCode::DateInPast)
        );
        assert_eq!(
            future_date(Some("2026-02-30"), today),
            Err(ErrorCode::InvalidDate)
        );
        assert_eq!(future_date(None, today), Err(ErrorCode::Required));
    }

    #[test]
    fn debicheck_maximum_is_at_most_one_and_a_half_times() {
        assert_eq!(maximum_collection(15_000, 10_000, true), Ok(()));
        assert_eq!(
            maximum_collection(15_001, 10_000, true),
            Err(ErrorCode::MaximumAboveDebicheckLimit)
        );
        assert_eq!(maximum_collection(50_000, 10_000, false), Ok(()));
        assert_eq!(
            maximum_collection(9_999, 10_000, false),
            Err(ErrorCode::MaximumBelowAmount)
        );
    }
}
