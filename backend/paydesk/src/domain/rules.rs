//! Field rules shared by every form and the import (DOMAIN.md, column rules).
//! Each check returns the error code for a bad value; callers name the field.

use protocol::ErrorCode;

/// The longest text any one field takes (a webhook's address): longer text
/// is refused wherever it enters, before the field's own rule is asked.
pub const LONGEST_TEXT: usize = 2_000;

/// The longest e-mail address an account, customer or invite may have.
pub const EMAIL_MAX: usize = 128;

/// Text that can be kept, the one rule every entry point applies (forms,
/// JSON bodies, socket frames, spreadsheet cells) before a field's own:
/// - no NUL: PostgreSQL's text cannot hold one, SQLite's can, and a
///   request must be answered alike on both;
/// - no U+FFFD: what decoding leaves where the bytes were not text (invalid
///   UTF-8 in a form or body, a lone surrogate in JSON, see `http::body`),
///   so damaged text is refused rather than kept damaged;
/// - at most `max` characters.
pub fn storable(value: &str, max: usize) -> Result<(), ErrorCode> {
    if value.contains(['\0', char::REPLACEMENT_CHARACTER]) {
        return Err(ErrorCode::InvalidCharacters);
    }
    at_most(value, max)
}

/// Required text: present after trimming, at most `max` characters.
pub fn required(value: &str, max: usize) -> Result<(), ErrorCode> {
    if value.is_empty() {
        return Err(ErrorCode::Required);
    }
    at_most(value, max)
}

pub fn at_most(value: &str, max: usize) -> Result<(), ErrorCode> {
    if value.chars().count() > max {
        Err(ErrorCode::TooLong)
    } else {
        Ok(())
    }
}

/// Names of people and businesses: letters (accented too), digits, spaces and `' . - & , ( )`.
pub fn name(value: &str, max: usize) -> Result<(), ErrorCode> {
    required(value, max)?;
    allowed(value, |c| c.is_alphanumeric() || " '.-&,()".contains(c))
}

/// A valid address whose domain is not a disposable-mail provider.
pub fn email(value: &str) -> Result<(), ErrorCode> {
    required(value, EMAIL_MAX)?;
    if !email_address::EmailAddress::is_valid(value) || !value.contains('.') || value.contains(' ')
    {
        return Err(ErrorCode::InvalidEmail);
    }
    if is_disposable(value) {
        return Err(ErrorCode::BlockedEmailDomain);
    }
    Ok(())
}

/// The maintained list of disposable-mail domains, as a set built once: an
/// import checks 100,000 addresses, and scanning the list for each one would
/// cost more than reading the whole spreadsheet.
fn disposable_domains() -> &'static std::collections::HashSet<&'static str> {
    static DOMAINS: std::sync::OnceLock<std::collections::HashSet<&'static str>> =
        std::sync::OnceLock::new();
    DOMAINS.get_or_init(|| mailchecker::blacklist().into_iter().collect())
}

/// Whether the address's domain, or a domain it belongs to
/// (`x.mailinator.com` belongs to `mailinator.com`), is on the list.
fn is_disposable(email: &str) -> bool {
    let Some((_, domain)) = email.rsplit_once('@') else {
        return false;
    };
    let domain = domain.to_lowercase();
    let mut rest = domain.as_str();
    loop {
        if rest.contains('.') && disposable_domains().contains(rest) {
            return true;
        }
        match rest.split_once('.') {
            Some((_, parent)) => rest = parent,
            None => return false,
        }
    }
}

/// Cellphone: optional leading `+`, then digits; 6 to 18 characters once spaces are dropped.
pub fn cellphone(normalised: &str) -> Result<(), ErrorCode> {
    let digits = normalised.strip_prefix('+').unwrap_or(normalised);
    let length = normalised.chars().count();
    if !(6..=18).contains(&length)
        || digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(ErrorCode::InvalidCellphone);
    }
    Ok(())
}

/// Drops the spaces people type inside phone numbers.
pub fn normalise_cellphone(value: &str) -> String {
    value.chars().filter(|c| !c.is_whitespace()).collect()
}

/// ID numbers: letters, digits and `/`, up to 32, no spaces.
pub fn id_number(value: &str) -> Result<(), ErrorCode> {
    required(value, 32)?;
    allowed(value, |c| c.is_ascii_alphanumeric() || c == '/')
}

/// Address lines: letters, digits, spaces and `, . / - ' #`.
pub fn address_line(value: &str) -> Result<(), ErrorCode> {
    at_most(value, 128)?;
    allowed(value, |c| c.is_alphanumeric() || " ,./-'#".contains(c))
}

pub fn town(value: &str) -> Result<(), ErrorCode> {
    at_most(value, 64)?;
    allowed(value, |c| c.is_alphanumeric() || " '.-".contains(c))
}

pub fn postal_code(value: &str) -> Result<(), ErrorCode> {
    if value.len() == 4 && value.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(ErrorCode::InvalidPostalCode)
    }
}

/// Customer reference: letters, digits and dashes, 1 to 35, no spaces.
pub fn customer_reference(value: &str) -> Result<(), ErrorCode> {
    required(value, 35)?;
    allowed(value, |c| c.is_ascii_alphanumeric() || c == '-')
}

/// A South African ID number: `YYMMDD SSSS C A Z`, a real birth date,
/// citizenship 0 or 1, and a Luhn check digit.
pub fn sa_id_number(value: &str) -> Result<(), ErrorCode> {
    let digits: Vec<u32> = value.chars().filter_map(|c| c.to_digit(10)).collect();
    if value.len() != 13 || digits.len() != 13 {
        return Err(ErrorCode::InvalidSaId);
    }
    let (yy, mm, dd) = (
        digits[0] * 10 + digits[1],
        digits[2] * 10 + digits[3],
        digits[4] * 10 + digits[5],
    );
    // The century is not written down; the date must exist in one of the two.
    let real_date = [1900 + yy, 2000 + yy]
        .iter()
        .any(|year| day_exists(*year, mm, dd));
    if !real_date || digits[10] > 1 || !luhn_valid(&digits) {
        return Err(ErrorCode::InvalidSaId);
    }
    Ok(())
}

fn day_exists(year: u32, month: u32, day: u32) -> bool {
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

pub(crate) fn luhn_valid(digits: &[u32]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, d)| {
            if i % 2 == 1 {
                let x = d * 2;
                if x > 9 { x - 9 } else { x }
            } else {
                *d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

fn allowed(value: &str, ok: impl Fn(char) -> bool) -> Result<(), ErrorCode> {
    if value.chars().all(ok) {
        Ok(())
    } else {
        Err(ErrorCode::InvalidCharacters)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_cannot_be_kept_is_refused_alike() {
        assert_eq!(storable("Zoë O'Neill", 32), Ok(()));
        assert_eq!(storable("a\0b", 32), Err(ErrorCode::InvalidCharacters));
        assert_eq!(
            storable(&String::from_utf8_lossy(b"caf\xe9"), 32),
            Err(ErrorCode::InvalidCharacters)
        );
        assert_eq!(storable(&"a".repeat(33), 32), Err(ErrorCode::TooLong));
        assert_eq!(storable(&"é".repeat(32), 32), Ok(()));
    }

    #[test]
    fn sa_id_numbers_from_the_domain_brief() {
        for valid in ["8801235111088", "9506245120008", "8001015009087"] {
            assert_eq!(sa_id_number(valid), Ok(()), "{valid}");
        }
        for invalid in [
            "9202204720082",
            "7501015800080",
            "880123511108",
            "8813235111088",
            "88012351110a8",
        ] {
            assert_eq!(
                sa_id_number(invalid),
                Err(ErrorCode::InvalidSaId),
                "{invalid}"
            );
        }
    }

    #[test]
    fn emails_from_disposable_domains_are_blocked() {
        for blocked in [
            "a@mailinator.com",
            "a@guerrillamail.com",
            "a@yopmail.com",
            "a@10minutemail.com",
            "a@Sub.Mailinator.COM",
        ] {
            assert_eq!(
                email(blocked),
                Err(ErrorCode::BlockedEmailDomain),
                "{blocked}"
            );
        }
        assert_eq!(email("thandi@example.co.za"), Ok(()));
        assert_eq!(email("thandi@mailinator.com.example.co.za"), Ok(()));
        assert_eq!(email("not an email"), Err(ErrorCode::InvalidEmail));
        assert_eq!(email(""), Err(ErrorCode::Required));
        assert_eq!(
            email(&format!("{}@example.com", "a".repeat(120))),
            Err(ErrorCode::TooLong)
        );
    }

    #[test]
    fn cellphone_boundaries() {
        assert_eq!(cellphone("123456"), Ok(()));
        assert_eq!(cellphone("12345"), Err(ErrorCode::InvalidCellphone));
        assert_eq!(cellphone(&format!("+{}", "1".repeat(17))), Ok(()));
        assert_eq!(cellphone(&"1".repeat(19)), Err(ErrorCode::InvalidCellphone));
        assert_eq!(cellphone(&normalise_cellphone("+27 82 123 4567")), Ok(()));
        assert_eq!(cellphone("+27-82"), Err(ErrorCode::InvalidCellphone));
    }

    #[test]
    fn references_and_codes() {
        assert_eq!(customer_reference("CUST-001"), Ok(()));
        assert_eq!(customer_reference(&"A".repeat(35)), Ok(()));
        assert_eq!(customer_reference(&"A".repeat(36)), Err(ErrorCode::TooLong));
        assert_eq!(
            customer_reference("CUST 001"),
            Err(ErrorCode::InvalidCharacters)
        );
        assert_eq!(postal_code("0181"), Ok(()));
        assert_eq!(postal_code("181"), Err(ErrorCode::InvalidPostalCode));
        assert_eq!(id_number("AB/123"), Ok(()));
        assert_eq!(id_number("AB 123"), Err(ErrorCode::InvalidCharacters));
        assert_eq!(name("Zoë O'Neill-Smith", 32), Ok(()));
        assert_eq!(name(&"a".repeat(33), 32), Err(ErrorCode::TooLong));
    }
}
