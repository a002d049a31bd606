//! What an approved signing makes, inside the one event the payer causes:
//! the customer (or the request's own), the bank account, the mandate and
//! its recurring payment, through the same use-cases as the merchant's
//! forms, and the payer's confirmation mail from the outbox.

use protocol::{
    Access, AdjustmentCategory, BankAccountChoice, Change, ClientType, CustomerInput, IdType,
    Industry, Interval, Language, MandateChoice, MandateInput, PaymentInput, PaymentKind,
    PaymentMethod, Permissions, Role,
};
use time::Date;

use super::form::Checked;
use super::{SigningRow, Terms};
use crate::domain::bank::Authentication;
use crate::domain::calendar::{long_date, parse_iso_date};
use crate::domain::clock::BusinessClock;
use crate::domain::collections::settle_authentication;
use crate::domain::mail::{escape, text, words};
use crate::domain::{Scope, customers, payments};
use crate::error::{AppError, AppResult};
use crate::store::Tx;
use crate::store::customers::{find_customer_in_tx, update_customer};
use crate::store::mail::{OutgoingMail, enqueue};
use crate::store::payments as payment_store;

/// The payer's signing runs the merchant's use-cases as the merchant's
/// system would; the event's cause still names the payer.
pub fn payer_scope(merchant_id: &str, mode: protocol::Mode, clock: BusinessClock) -> Scope {
    Scope {
        merchant_id: merchant_id.to_string(),
        mode,
        user_id: "payer".into(),
        role: Role::Owner,
        permissions: Permissions::all(Access::Write),
        clock,
        origin: String::new(),
    }
}

/// The statement name: the merchant's name as the bank allows it (up to 10
/// letters, digits and spaces).
pub fn statement_name(merchant: &str) -> String {
    let kept: String = merchant
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == ' ')
        .take(10)
        .collect();
    kept.trim().to_string()
}

/// The day a schedule collects on, read from its first date: the weekday
/// (Monday 1) for weekly and fortnightly, the day of the month otherwise.
fn day_to_process(interval: Interval, start: Date) -> u8 {
    match interval {
        Interval::Weekly | Interval::Fortnightly => start.weekday().number_from_monday(),
        _ => start.day(),
    }
}

/// The mandate's contract reference: letters and digits of the signing's id.
fn contract_reference(signing_id: &str) -> String {
    let kept: String = signing_id
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let start = kept.len().saturating_sub(14);
    kept[start..].to_uppercase()
}

/// The customer the mandate is for: the request's own customer (given the
/// payer's ID number and cellphone, which DebiCheck needs), or a new one.
async fn customer_for(
    tx: &mut Tx,
    scope: &Scope,
    existing: Option<&str>,
    checked: &Checked,
    changes: &mut Vec<Change>,
) -> AppResult<String> {
    let a = &checked.answers;
    let id_type = if a.payer_kind == "business" {
        IdType::CompanyRegistrationNumber
    } else {
        IdType::SouthAfricanId
    };
    if let Some(id) = existing {
        let customer = find_customer_in_tx(tx, &scope.merchant_id, scope.mode, id)
            .await?
            .ok_or(AppError::Code(protocol::ErrorCode::NotFound))?;
        let input = CustomerInput {
            name: customer.name,
            email: customer.email,
            cellphone: a.cellphone.clone(),
            id_type: Some(id_type),
            id_number: a.id_number.clone(),
            address_line1: customer.address_line1,
            address_line2: customer.address_line2,
            city: customer.city,
            postal_code: customer.postal_code,
            reference: customer.reference,
        };
        let input = customers::validate_customer(&input)?;
        let updated = {
            let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
            update_customer(tx, &scope.merchant_id, scope.mode, id, &input, now).await?
        };
        if let Some(updated) = updated {
            changes.push(Change::CustomerUpserted {
                customer: Box::new(updated),
            });
        }
        return Ok(id.to_string());
    }
    let input = CustomerInput {
        name: a.name.clone(),
        email: a.email.clone(),
        cellphone: a.cellphone.clone(),
        id_type: Some(id_type),
        id_number: a.id_number.clone(),
        address_line1: String::new(),
        address_line2: String::new(),
        city: String::new(),
        postal_code: String::new(),
        reference: String::new(),
    };
    let effect = customers::create_customer(tx, scope, &input).await?;
    changes.extend(effect.changes);
    effect
        .id
        .ok_or_else(|| AppError::Internal("new customer has no id".into()))
}

/// Makes the customer, bank account, mandate (approved) and recurring
/// payment; returns the mandate's id.
pub async fn make_mandate(
    tx: &mut Tx,
    scope: &Scope,
    signing: &SigningRow,
    existing_customer: Option<&str>,
    checked: &Checked,
    terms: &Terms,
    changes: &mut Vec<Change>,
) -> AppResult<String> {
    let today = crate::domain::scope::stream_today(tx, scope).await?;
    let customer_id = customer_for(tx, scope, existing_customer, checked, changes).await?;
    let start = parse_iso_date(&signing.start_date)
        .ok_or_else(|| AppError::Internal("signing start date".into()))?;
    let debicheck = signing.method == PaymentMethod::Debicheck;
    let mandate = MandateInput {
        method: signing.method,
        bank_account: BankAccountChoice::New {
            input: checked.account.clone(),
        },
        client_type: if checked.answers.payer_kind == "business" {
            ClientType::DomesticCompany
        } else {
            ClientType::ResidentIndividual
        },
        industry: Industry::Subscription,
        contract_reference: contract_reference(&signing.id),
        maximum_collection_cents: Some(signing.max_cents.unwrap_or(signing.amount_cents)),
        // Tracking and date adjustment as the merchant's settings have them
        // (the terms the payer read).
        allow_tracking: terms.tracking_days.is_some(),
        tracking_days: terms.tracking_days,
        allow_date_adjustment: terms.date_adjustment,
        variable_amount: false,
        adjustment_category: AdjustmentCategory::Never,
        adjustment_type: None,
        adjustment_rate: String::new(),
        adjustment_amount_cents: None,
        approval_window: terms.window,
        abbreviated_name: terms.statement.clone(),
    };
    let input = PaymentInput {
        customer_id,
        mandate: Some(MandateChoice::New {
            input: Box::new(mandate),
        }),
        kind: PaymentKind::Recurring,
        amount_cents: Some(signing.amount_cents),
        date_to_process: None,
        transaction_reference: String::new(),
        start_date: Some(signing.start_date.clone()),
        end_date: None,
        interval: Some(signing.interval),
        day_to_process: Some(day_to_process(signing.interval, start)),
        first_collection_cents: None,
        start_running: true,
    };
    let effect = payments::create_payment(tx, scope, &input).await?;
    changes.extend(effect.changes);
    let payment_id = effect
        .id
        .ok_or_else(|| AppError::Internal("new payment has no id".into()))?;
    let payment =
        payment_store::find_payment(&mut **tx, &scope.merchant_id, scope.mode, &payment_id)
            .await?
            .ok_or_else(|| AppError::Internal("new payment not found".into()))?;
    let mandate_id = payment.view.mandate_id.clone();
    if debicheck {
        // The bank already approved: the mandate is active from now.
        settle_authentication(
            tx,
            scope,
            &mandate_id,
            Authentication::Approved,
            today,
            changes,
        )
        .await?;
    }
    Ok(mandate_id)
}

fn interval_key(interval: Interval) -> String {
    crate::store::sql::wire_name(&interval)
}

/// The confirmation: the mandate's terms in the payer's language.
pub fn compose_confirmation(
    merchant: &str,
    terms: &Terms,
    email: &str,
    name: &str,
    mandate_id: &str,
    language: Language,
) -> OutgoingMail {
    let words = words(language);
    let rands = crate::domain::commerce::receipt::rands;
    let amount = rands(terms.amount_cents);
    let maximum = rands(terms.max_cents.unwrap_or(terms.amount_cents));
    let start = long_date(&terms.start_date, language);
    let how_often = text(
        &words,
        &[
            "e_mandate_request",
            "intervals",
            &interval_key(terms.interval),
        ],
        &[],
    );
    let method = text(
        &words,
        &["e_mandate_request", "methods", terms.method.as_str()],
        &[],
    );
    let vars = [
        ("name", name),
        ("merchant", merchant),
        ("amount", amount.as_str()),
        ("maximum", maximum.as_str()),
        ("interval", how_often.as_str()),
        ("start", start.as_str()),
        ("method", method.as_str()),
        ("statement", terms.statement.as_str()),
        ("mandate", mandate_id),
    ];
    let line = |key: &str| text(&words, &["e_mandate_signed", key], &vars);
    let greeting = text(&words, &["greeting"], &vars);
    let paragraphs = [
        line("intro"),
        line("terms"),
        line("maximum"),
        line("statement"),
        line("reference"),
        line("stop"),
    ];
    let signature = text(&words, &["signature"], &vars);
    let plain = format!("{greeting}\n\n{}\n\n{signature}\n", paragraphs.join("\n\n"));
    let html_paragraphs: String = paragraphs
        .iter()
        .map(|p| format!("<p>{}</p>", escape(p)))
        .collect();
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><body style=\"font-family:sans-serif;color:#18181b\">\
         <p>{greeting}</p>{html_paragraphs}<p>{signature}</p></body></html>",
        lang = language.tag(),
        greeting = escape(&greeting),
        signature = escape(&signature),
    );
    OutgoingMail {
        to: email.to_string(),
        subject: line("subject"),
        text: plain,
        html,
    }
}

pub async fn mail_confirmation(
    tx: &mut Tx,
    merchant: &str,
    terms: &Terms,
    checked: &Checked,
    mandate_id: &str,
    language: Language,
) -> AppResult<()> {
    let a = &checked.answers;
    let mail = compose_confirmation(merchant, terms, &a.email, &a.name, mandate_id, language);
    enqueue(tx, &mail).await
}
