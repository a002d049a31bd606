//! The simulated card acquirer. There is no card network here: like the
//! simulated bank, it answers from the card number (the test cards in
//! the README) and hands out a token that stands for the card from
//! then on. The number and CVV go no further than this module's functions.

use protocol::{CardBrand, ErrorCode, Mode, PayFailure};
use time::Date;

use crate::domain::rules;
use crate::ids::new_secret;

/// What the issuer does with a charge of this card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    Approve,
    Decline,
    InsufficientFunds,
    /// Asks the card holder to authenticate (3-D Secure) before approving.
    Challenge,
    /// Approved with the card holder present; every charge on file is
    /// declined (a card the issuer stopped for recurring charges).
    DeclineOnFile,
    /// Approved with the card holder present; a charge on file is refused
    /// for insufficient funds on its first two tries and approved on the
    /// third (the money arrived in time for the retry).
    FundsOnThirdTry,
}

impl Behaviour {
    fn tag(self) -> &'static str {
        match self {
            Behaviour::Approve => "ok",
            Behaviour::Decline => "declined",
            Behaviour::InsufficientFunds => "funds",
            Behaviour::Challenge => "3ds",
            Behaviour::DeclineOnFile => "onfile",
            Behaviour::FundsOnThirdTry => "third",
        }
    }

    fn from_tag(tag: &str) -> Behaviour {
        match tag {
            "declined" => Behaviour::Decline,
            "funds" => Behaviour::InsufficientFunds,
            "3ds" => Behaviour::Challenge,
            "onfile" => Behaviour::DeclineOnFile,
            "third" => Behaviour::FundsOnThirdTry,
            _ => Behaviour::Approve,
        }
    }
}

/// The test cards: any other number that passes the Luhn check is approved.
pub const TEST_CARDS: [(&str, Behaviour); 7] = [
    ("4242424242424242", Behaviour::Approve),
    ("5555555555554444", Behaviour::Approve),
    ("4000000000000002", Behaviour::Decline),
    ("4000000000009995", Behaviour::InsufficientFunds),
    ("4000000000003220", Behaviour::Challenge),
    ("4000000000000341", Behaviour::DeclineOnFile),
    ("4000000000000077", Behaviour::FundsOnThirdTry),
];

/// A card as the payer typed it, checked. Lives only for one request.
pub struct CardDetails {
    digits: String,
    pub expiry_month: u8,
    pub expiry_year: u16,
}

/// What is kept of a card: never the number or the CVV.
#[derive(Clone, Debug)]
pub struct Tokenised {
    pub token: String,
    pub brand: CardBrand,
    pub last_four: String,
    pub expiry_month: u8,
    pub expiry_year: u16,
}

/// The Luhn check digit rule over a string of ASCII digits (the rule ID
/// numbers use too).
pub fn luhn(digits: &str) -> bool {
    let values: Vec<u32> = digits.bytes().map(|b| u32::from(b - b'0')).collect();
    rules::luhn_valid(&values)
}

pub fn brand_of(digits: &str) -> CardBrand {
    let prefix = |n: usize| {
        digits
            .get(..n)
            .and_then(|p| p.parse::<u32>().ok())
            .unwrap_or(0)
    };
    match (prefix(1), prefix(2), prefix(3), prefix(4)) {
        (4, _, _, _) => CardBrand::Visa,
        (_, 51..=55, _, _) | (_, _, _, 2221..=2720) => CardBrand::Mastercard,
        (_, 34 | 37, _, _) => CardBrand::Amex,
        (_, 36 | 38 | 39, _, _) | (_, _, 300..=305, _) => CardBrand::Diners,
        _ => CardBrand::Other,
    }
}

/// How receipts and pages name a brand.
pub fn brand_name(brand: CardBrand) -> &'static str {
    match brand {
        CardBrand::Visa => "Visa",
        CardBrand::Mastercard => "Mastercard",
        CardBrand::Amex => "American Express",
        CardBrand::Diners => "Diners Club",
        CardBrand::Other => "Card",
    }
}

/// Checks what the payer typed, on a page or link of `mode`. Errors name
/// the form's fields.
pub fn check_card(
    number: &str,
    expiry: &str,
    cvv: &str,
    (today, mode): (Date, Mode),
) -> Result<CardDetails, Vec<(&'static str, ErrorCode)>> {
    // Text no form may send, by the rule every entry point uses.
    let unstorable: Vec<(&'static str, ErrorCode)> =
        [("cardNumber", number), ("expiry", expiry), ("cvv", cvv)]
            .into_iter()
            .filter_map(|(field, value)| {
                Some((field, rules::storable(value, rules::LONGEST_TEXT).err()?))
            })
            .collect();
    if !unstorable.is_empty() {
        return Err(unstorable);
    }
    let mut errors = Vec::new();
    let digits: String = number
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect();
    let number_ok = (12..=19).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && luhn(&digits);
    if digits.is_empty() {
        errors.push(("cardNumber", ErrorCode::Required));
    } else if !number_ok {
        errors.push(("cardNumber", ErrorCode::CardNumberInvalid));
    } else if mode == Mode::Live && TEST_CARDS.iter().any(|(test, _)| *test == digits) {
        // As the well-known gateways do: a test card paying a live page
        // would look like real money to the merchant.
        errors.push(("cardNumber", ErrorCode::TestCardInLiveMode));
    }
    let expiry = parse_expiry(expiry);
    match expiry {
        None => errors.push(("expiry", ErrorCode::InvalidExpiry)),
        Some((month, year)) => {
            let now = (i32::from(year), month);
            if now < (today.year(), u8::from(today.month())) {
                errors.push(("expiry", ErrorCode::CardExpired));
            }
        }
    }
    let cvv_len = if brand_of(&digits) == CardBrand::Amex {
        4
    } else {
        3
    };
    let cvv = cvv.trim();
    if cvv.len() != cvv_len || !cvv.bytes().all(|b| b.is_ascii_digit()) {
        errors.push(("cvv", ErrorCode::InvalidCvv));
    }
    match (errors.is_empty(), expiry) {
        (true, Some((expiry_month, expiry_year))) => Ok(CardDetails {
            digits,
            expiry_month,
            expiry_year,
        }),
        _ => Err(errors),
    }
}

/// `MM/YY`, `MM / YY` or `MM/YYYY`.
fn parse_expiry(value: &str) -> Option<(u8, u16)> {
    let (month, year) = value.split_once('/')?;
    let (month, year) = (month.trim(), year.trim());
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(month) || !all_digits(year) || month.len() > 2 {
        return None;
    }
    let month: u8 = month.parse().ok()?;
    let year: u16 = match year.len() {
        2 => 2000 + year.parse::<u16>().ok()?,
        4 => year.parse().ok()?,
        _ => return None,
    };
    (1..=12).contains(&month).then_some((month, year))
}

fn behaviour_of(digits: &str) -> Behaviour {
    TEST_CARDS
        .iter()
        .find(|(number, _)| *number == digits)
        .map_or(Behaviour::Approve, |(_, behaviour)| *behaviour)
}

/// Exchanges the card for a token. The token carries the test behaviour, as
/// a real acquirer's sandbox tokens do; the digits end here.
pub fn tokenise(card: CardDetails) -> (Tokenised, Behaviour) {
    let behaviour = behaviour_of(&card.digits);
    let last_four = card.digits[card.digits.len() - 4..].to_string();
    let tokenised = Tokenised {
        token: format!("tok_{}_{}", behaviour.tag(), new_secret()),
        brand: brand_of(&card.digits),
        last_four,
        expiry_month: card.expiry_month,
        expiry_year: card.expiry_year,
    };
    (tokenised, behaviour)
}

/// What the issuer says to a charge the card holder is not present for (a
/// card on file): no challenge can be answered, so none is asked.
pub fn charge_token(token: &str) -> Result<(), PayFailure> {
    charge_on_file(token, 1)
}

/// A charge on file, `try_number` (from 1) of the same amount due: the
/// scheduler's retries of a refused charge count up.
pub fn charge_on_file(token: &str, try_number: u32) -> Result<(), PayFailure> {
    let tag = token
        .strip_prefix("tok_")
        .and_then(|rest| rest.split_once('_'))
        .map_or("", |(tag, _)| tag);
    match Behaviour::from_tag(tag) {
        Behaviour::DeclineOnFile => Err(PayFailure::Declined),
        Behaviour::FundsOnThirdTry if try_number < 3 => Err(PayFailure::InsufficientFunds),
        behaviour => outcome(behaviour).unwrap_or(Ok(())),
    }
}

/// The issuer's answer, or `None` while a challenge is outstanding.
pub fn outcome(behaviour: Behaviour) -> Option<Result<(), PayFailure>> {
    match behaviour {
        Behaviour::Approve => Some(Ok(())),
        Behaviour::Decline => Some(Err(PayFailure::Declined)),
        Behaviour::InsufficientFunds => Some(Err(PayFailure::InsufficientFunds)),
        Behaviour::Challenge => None,
        Behaviour::DeclineOnFile | Behaviour::FundsOnThirdTry => Some(Ok(())),
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    const TODAY: Date = date!(2026 - 03 - 02);

    #[test]
    fn luhn_accepts_the_test_cards_and_refuses_a_changed_digit() {
        for (number, _) in TEST_CARDS {
            assert!(luhn(number), "{number}");
        }
        assert!(!luhn("4242424242424241"));
        assert!(luhn("378282246310005"));
    }

    #[test]
    fn brands_follow_the_prefixes() {
        assert_eq!(brand_of("4242424242424242"), CardBrand::Visa);
        assert_eq!(brand_of("5555555555554444"), CardBrand::Mastercard);
        assert_eq!(brand_of("2223003122003222"), CardBrand::Mastercard);
        assert_eq!(brand_of("378282246310005"), CardBrand::Amex);
        assert_eq!(brand_of("30569309025904"), CardBrand::Diners);
        assert_eq!(brand_of("6011111111111117"), CardBrand::Other);
    }

    #[test]
    fn typed_cards_are_checked_field_by_field() {
        let fields = |n: &str, e: &str, c: &str| -> Vec<(&'static str, ErrorCode)> {
            check_card(n, e, c, (TODAY, Mode::Test))
                .err()
                .unwrap_or_default()
        };
        assert!(fields("4242 4242 4242 4242", "03/26", "123").is_empty());
        assert!(fields("4242-4242-4242-4242", "12/2030", "123").is_empty());
        assert!(fields("378282246310005", "01/30", "1234").is_empty());
        assert_eq!(
            fields("", "03/26", "123"),
            vec![("cardNumber", ErrorCode::Required)]
        );
        assert_eq!(
            fields("4242424242424241", "03/26", "123"),
            vec![("cardNumber", ErrorCode::CardNumberInvalid)]
        );
        assert_eq!(
            fields("42424242424", "03/26", "123"),
            vec![("cardNumber", ErrorCode::CardNumberInvalid)]
        );
        assert_eq!(
            fields("4242424242424242", "02/26", "123"),
            vec![("expiry", ErrorCode::CardExpired)]
        );
        assert_eq!(
            fields("4242424242424242", "13/30", "123"),
            vec![("expiry", ErrorCode::InvalidExpiry)]
        );
        assert_eq!(
            fields("4242424242424242", "1230", "123"),
            vec![("expiry", ErrorCode::InvalidExpiry)]
        );
        assert_eq!(
            fields("4242424242424242", "03/26", "12"),
            vec![("cvv", ErrorCode::InvalidCvv)]
        );
        assert_eq!(
            fields("378282246310005", "03/26", "123"),
            vec![("cvv", ErrorCode::InvalidCvv)]
        );
    }

    #[test]
    fn test_cards_pay_test_pages_only() {
        let live = |n: &str| check_card(n, "12/30", "123", (TODAY, Mode::Live)).err();
        for (number, _) in TEST_CARDS {
            assert_eq!(
                live(number),
                Some(vec![("cardNumber", ErrorCode::TestCardInLiveMode)]),
                "{number}"
            );
        }
        assert!(live("4242 4242 4242 4242").is_some());
        // Any other valid number goes to the acquirer.
        assert!(live("4111111111111111").is_none());
    }

    #[test]
    fn tokens_keep_the_behaviour_and_drop_the_number() {
        for (number, behaviour) in TEST_CARDS {
            let Ok(card) = check_card(number, "12/30", "123", (TODAY, Mode::Test)) else {
                panic!("{number} is valid");
            };
            let (tokenised, told) = tokenise(card);
            assert_eq!(told, behaviour);
            assert!(!tokenised.token.contains(number));
            assert_eq!(tokenised.last_four, &number[12..]);
            let expected = match behaviour {
                Behaviour::Decline | Behaviour::DeclineOnFile => Err(PayFailure::Declined),
                Behaviour::InsufficientFunds | Behaviour::FundsOnThirdTry => {
                    Err(PayFailure::InsufficientFunds)
                }
                Behaviour::Approve | Behaviour::Challenge => Ok(()),
            };
            assert_eq!(charge_token(&tokenised.token), expected);
            let third = match behaviour {
                Behaviour::FundsOnThirdTry => Ok(()),
                _ => expected,
            };
            assert_eq!(charge_on_file(&tokenised.token, 3), third);
        }
    }
}
