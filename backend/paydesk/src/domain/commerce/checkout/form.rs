//! The payer's form: what they typed, what is kept of it, and its checks.

use protocol::{AmountMode, BankId, ErrorCode, Language, PayPage, PaymentKind, PaymentMethod};
use serde::{Deserialize, Serialize};

use super::super::super::imports::lookups::BANKS;
use super::super::super::rules;
use super::super::acquirer::{self, Behaviour, Tokenised};
use super::public_page::PublicPage;
use crate::error::{AppError, AppResult};

const NAME_MAX: usize = 64;
/// What the payer typed. The card number and CVV live only in this value,
/// which has no `Debug` on purpose: it can never end up in a log line.
#[derive(Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayForm {
    #[serde(default)]
    pub method: String,
    #[serde(default)]
    pub amount: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub card_number: String,
    #[serde(default)]
    pub expiry: String,
    #[serde(default)]
    pub cvv: String,
    #[serde(default)]
    pub bank: String,
}

impl PayForm {
    /// Each answer by the name its form field has.
    fn fields(&self) -> [(&'static str, &str); 8] {
        [
            ("method", &self.method),
            ("amount", &self.amount),
            ("name", &self.name),
            ("email", &self.email),
            ("cardNumber", &self.card_number),
            ("expiry", &self.expiry),
            ("cvv", &self.cvv),
            ("bank", &self.bank),
        ]
    }
}

/// What is kept of the payer's answers to show the form again after a
/// refusal: never the card number or CVV.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct KeptAnswers {
    pub method: String,
    pub amount: String,
    pub name: String,
    pub email: String,
    pub expiry: String,
    pub bank: String,
    /// The payer's language, for the receipt.
    pub language: String,
    /// A card waiting for 3-D Secure, to keep on file once approved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_card: Option<PendingCard>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PendingCard {
    pub token: String,
    pub brand: protocol::CardBrand,
    pub last_four: String,
    pub expiry_month: u8,
    pub expiry_year: u16,
}

/// Rands as typed ("150", "150.5", "R 1 500,00") to cents.
pub fn parse_rands(value: &str) -> Option<i64> {
    let cleaned: String = value
        .trim()
        .trim_start_matches(['R', 'r'])
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == ',' { '.' } else { c })
        .collect();
    let (whole, fraction) = cleaned.split_once('.').unwrap_or((&cleaned, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || whole.len() > 10
        || !digits(whole)
        || !digits(fraction)
        || fraction.len() > 2
    {
        return None;
    }
    let cents = format!("{fraction:0<2}").parse::<i64>().ok()?;
    Some(whole.parse::<i64>().ok()? * 100 + cents)
}

pub fn bank_of(value: &str) -> Option<BankId> {
    BANKS
        .entries
        .iter()
        .map(|(_, _, bank)| *bank)
        .find(|bank| crate::store::sql::wire_name(bank) == value)
}

pub fn bank_name(bank: BankId) -> &'static str {
    BANKS
        .entries
        .iter()
        .find(|(_, _, b)| *b == bank)
        .map_or("", |(name, _, _)| name)
}

/// The methods the payer can use on this page: those the page was saved
/// with, of the ones the checkout handles.
pub fn offered_methods(page: &PayPage) -> Vec<PaymentMethod> {
    page.methods
        .iter()
        .copied()
        .filter(|m| matches!(m, PaymentMethod::Card | PaymentMethod::InstantEft))
        .collect()
}

/// The payer's answers, checked; the card (if any) checked and tokenised.
pub(super) struct CheckedForm {
    pub(super) method: PaymentMethod,
    pub(super) amount_cents: i64,
    pub(super) name: String,
    pub(super) email: Option<String>,
    pub(super) source: CheckedSource,
    pub(super) answers: KeptAnswers,
}

pub(super) enum CheckedSource {
    Card(Tokenised, Behaviour),
    Bank(BankId),
}

pub(super) fn check_form(
    page: &PublicPage,
    form: &PayForm,
    language: Language,
) -> Result<CheckedForm, Vec<(&'static str, ErrorCode)>> {
    // Text no record could hold, by the rule every entry point uses.
    let unstorable: Vec<(&'static str, ErrorCode)> = form
        .fields()
        .into_iter()
        .filter_map(|(field, value)| {
            Some((field, rules::storable(value, rules::LONGEST_TEXT).err()?))
        })
        .collect();
    if !unstorable.is_empty() {
        return Err(unstorable);
    }
    let mut errors = Vec::new();
    let method = PaymentMethod::parse(form.method.trim())
        .filter(|m| offered_methods(&page.page).contains(m));
    if method.is_none() {
        errors.push(("method", ErrorCode::Required));
    }
    let p = &page.page;
    let amount_cents = match p.amount_mode {
        AmountMode::Fixed => p.amount_cents,
        AmountMode::PayerChosen => match parse_rands(&form.amount) {
            None => {
                errors.push(("amount", ErrorCode::InvalidAmount));
                None
            }
            Some(cents) if cents < p.min_cents.unwrap_or(1).max(1) => {
                errors.push(("amount", ErrorCode::AmountBelowMinimum));
                None
            }
            Some(cents) if p.max_cents.is_some_and(|max| cents > max) => {
                errors.push(("amount", ErrorCode::AmountAboveMaximum));
                None
            }
            Some(cents) => Some(cents),
        },
    };
    let name = form.name.trim().to_string();
    if let Err(code) = rules::name(&name, NAME_MAX) {
        errors.push(("name", code));
    }
    let email = form.email.trim().to_lowercase();
    // A recurring page keeps the payer as a customer, who needs an address.
    if email.is_empty() && p.kind == PaymentKind::Recurring {
        errors.push(("email", ErrorCode::Required));
    } else if !email.is_empty()
        && let Err(code) = rules::email(&email)
    {
        errors.push(("email", code));
    }
    let source = match method {
        Some(PaymentMethod::Card) => {
            match acquirer::check_card(
                &form.card_number,
                &form.expiry,
                &form.cvv,
                (page.today, p.mode),
            ) {
                Ok(card) => {
                    let (tokenised, behaviour) = acquirer::tokenise(card);
                    Some(CheckedSource::Card(tokenised, behaviour))
                }
                Err(card_errors) => {
                    errors.extend(card_errors);
                    None
                }
            }
        }
        Some(PaymentMethod::InstantEft) => match bank_of(form.bank.trim()) {
            Some(bank) => Some(CheckedSource::Bank(bank)),
            None => {
                errors.push(("bank", ErrorCode::Required));
                None
            }
        },
        _ => None,
    };
    let answers = KeptAnswers {
        method: form.method.trim().to_string(),
        amount: form.amount.trim().to_string(),
        name: name.clone(),
        email: email.clone(),
        expiry: form.expiry.trim().to_string(),
        bank: form.bank.trim().to_string(),
        language: language.as_str().to_string(),
        pending_card: None,
    };
    match (method, amount_cents, source) {
        (Some(method), Some(amount_cents), Some(source)) if errors.is_empty() => Ok(CheckedForm {
            method,
            amount_cents,
            name,
            email: (!email.is_empty()).then_some(email),
            source,
            answers,
        }),
        _ => Err(errors),
    }
}

pub(super) fn answers_json(answers: &KeptAnswers) -> AppResult<String> {
    serde_json::to_string(answers).map_err(|e| AppError::Internal(format!("pay attempt: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rands_are_read_the_way_people_write_them() {
        assert_eq!(parse_rands("150"), Some(15_000));
        assert_eq!(parse_rands("150.5"), Some(15_050));
        assert_eq!(parse_rands("R 1 500,25"), Some(150_025));
        assert_eq!(parse_rands("0.01"), Some(1));
        for bad in ["", "R", "1.234", "-5", "1e3", "12.3.4", "abc"] {
            assert_eq!(parse_rands(bad), None, "{bad}");
        }
    }

    #[test]
    fn banks_are_chosen_by_their_wire_name() {
        assert_eq!(bank_of("capitec"), Some(BankId::Capitec));
        assert_eq!(bank_of("Capitec"), None);
        assert_eq!(bank_name(BankId::Fnb), "FNB");
    }
}
