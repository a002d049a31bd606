//! What the payer may change on the terms step, when the merchant's
//! request allows it: the amount (never above the mandate's maximum) and
//! the first collection date (by the merchant's own rule for it, on a
//! business day). What they choose is what the mandate, its recurring
//! payment and the confirmation mail carry.

use protocol::{EMandateChangeable, ErrorCode, PaymentMethod};

use super::Signing;
use super::form::{Answers, Problems};
use crate::domain::calendar::{is_business_day, iso_date};
use crate::domain::collection_rules as rule;
use crate::domain::commerce::checkout::parse_rands;
use crate::domain::e_mandates::first_collection;

/// Which terms the payer is offered to change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changeable {
    pub amount: bool,
    pub start_date: bool,
}

impl Changeable {
    pub fn any(self) -> bool {
        self.amount || self.start_date
    }
}

/// The terms as the payer settled them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    pub amount_cents: i64,
    pub start_date: String,
}

/// A post that changes a term the payer was not offered: refused whole,
/// since the page never showed such a field.
#[derive(Debug, PartialEq, Eq)]
pub struct Forged;

/// What the merchant's request lets this payer change. A pay page's
/// signing has no request, so its terms are the page's.
pub fn changeable(signing: &Signing) -> Changeable {
    let allowed = signing
        .request
        .as_ref()
        .map(|r| r.payer_may_change.as_slice())
        .unwrap_or_default();
    Changeable {
        amount: allowed.contains(&EMandateChangeable::Amount),
        start_date: allowed.contains(&EMandateChangeable::StartDate),
    }
}

/// The most one collection may take: the merchant's maximum, or for
/// DebiCheck without one the amount the merchant asked (DebiCheck never
/// collects above what the payer's bank approved).
pub fn amount_limit(signing: &Signing) -> Option<i64> {
    let t = &signing.terms;
    match (t.max_cents, t.method) {
        (Some(max), _) => Some(max),
        (None, PaymentMethod::Debicheck) => Some(t.amount_cents),
        (None, _) => None,
    }
}

fn chosen_amount(signing: &Signing, value: &str) -> Result<i64, ErrorCode> {
    let t = &signing.terms;
    let cents = parse_rands(value).ok_or(ErrorCode::InvalidAmount)?;
    rule::amount(cents)?;
    if let Some(limit) = amount_limit(signing) {
        if cents > limit {
            return Err(ErrorCode::AmountAboveMandateMaximum);
        }
        // The same rule as the merchant's mandate form: a DebiCheck
        // maximum is at most one and a half times the amount.
        if t.max_cents.is_some() {
            rule::maximum_collection(limit, cents, t.method == PaymentMethod::Debicheck)?;
        }
    }
    Ok(cents)
}

fn chosen_start(signing: &Signing, value: &str) -> Result<String, ErrorCode> {
    let date = first_collection(value, signing.today)?;
    if !is_business_day(date) {
        return Err(ErrorCode::NotBusinessDay);
    }
    Ok(iso_date(date))
}

/// Checks the payer's choices; each problem is reported beside its field.
/// A changed term the payer was not offered is forged.
pub fn check_choices(
    signing: &Signing,
    answers: &Answers,
    problems: &mut Problems,
) -> Result<Option<Chosen>, Forged> {
    let t = &signing.terms;
    let may = changeable(signing);
    let amount = answers.amount.trim();
    let start = answers.start_date.trim();
    if !may.amount && !amount.is_empty() && parse_rands(amount) != Some(t.amount_cents) {
        return Err(Forged);
    }
    if !may.start_date && !start.is_empty() && start != t.start_date {
        return Err(Forged);
    }
    let mut chosen = Chosen {
        amount_cents: t.amount_cents,
        start_date: t.start_date.clone(),
    };
    if may.amount {
        match chosen_amount(signing, amount) {
            Ok(cents) => chosen.amount_cents = cents,
            Err(code) => problems.push(("amount", code)),
        }
    }
    if may.start_date {
        match chosen_start(signing, start) {
            Ok(date) => chosen.start_date = date,
            Err(code) => problems.push(("startDate", code)),
        }
    }
    Ok(problems.is_empty().then_some(chosen))
}
