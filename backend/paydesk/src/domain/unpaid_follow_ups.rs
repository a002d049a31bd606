//! Following up a debit order the bank returned unpaid: present it again on
//! a chosen day, send the payer a pay link for the amount, ask them for a new
//! mandate, or mail them. Each is kept on the transaction (`follow_ups`), so
//! the team sees what was done and the history records who did it.

use protocol::{
    AmountMode, Change, Customer, EMandateChangeable, EMandateRequestInput, ErrorCode, FieldError,
    Interval, Language, PayPageInput, PaymentKind, PaymentMethod, Transaction, TransactionStatus,
    UnpaidAction, UnpaidFollowUp, UnpaidFollowUpKind,
};
use serde_json::Value;
use time::Duration;

use super::calendar::{iso_date, long_date, next_business_day_on_or_after, parse_iso_date};
use super::mail::{compose_action, escape, text, words};
use super::scope::{stream_now_ms, stream_today};
use super::{Effect, Scope, checked_id, commerce, e_mandates, payments, representations, rules};
use crate::error::{AppError, AppResult};
use crate::store::Tx;
use crate::store::customers as customer_store;
use crate::store::mail::{OutgoingMail, enqueue};
use crate::store::transactions as transaction_store;

/// The longest message a merchant may mail a payer.
const MESSAGE_MAX: usize = 2_000;
/// The colour of a pay page made for an unpaid (the pay pages' default).
const PAY_LINK_COLOUR: &str = "#0f766e";
/// How long a pay link made for an unpaid takes payments.
const PAY_LINK_DAYS: i64 = 14;
/// How far ahead a new mandate's first collection is proposed, in days;
/// the payer may choose a later one.
const NEW_MANDATE_LEAD_DAYS: i64 = 7;

fn invalid(field: &str, code: ErrorCode) -> AppError {
    AppError::Invalid(vec![FieldError {
        field: field.into(),
        code,
    }])
}

/// The unpaid debit order and its payer; anything else is refused.
struct Unpaid {
    transaction: Transaction,
    payment_id: String,
    customer: Customer,
}

async fn load_unpaid(tx: &mut Tx, scope: &Scope, transaction_id: &str) -> AppResult<Unpaid> {
    let id = checked_id(transaction_id)?;
    let record = transaction_store::find_transaction(&mut **tx, &scope.merchant_id, scope.mode, id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    let transaction = record.view;
    let (Some(payment_id), Some(customer_id)) = (
        transaction.payment_id.clone(),
        transaction.customer_id.clone(),
    ) else {
        return Err(AppError::Code(ErrorCode::NotUnpaid));
    };
    if transaction.status != TransactionStatus::Unpaid {
        return Err(AppError::Code(ErrorCode::NotUnpaid));
    }
    let customer =
        customer_store::find_customer_in_tx(tx, &scope.merchant_id, scope.mode, &customer_id)
            .await?
            .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(Unpaid {
        transaction,
        payment_id,
        customer,
    })
}

pub async fn act_on_unpaid(
    tx: &mut Tx,
    scope: &Scope,
    transaction_id: &str,
    action: &UnpaidAction,
) -> AppResult<Effect> {
    let mut unpaid = load_unpaid(tx, scope, transaction_id).await?;
    let now = stream_now_ms(&mut **tx, scope).await?;
    let mut changes = Vec::new();
    let follow_up = match action {
        UnpaidAction::Represent { date } => {
            represent(tx, scope, &unpaid, date, &mut changes).await?
        }
        UnpaidAction::SendPayLink { language } => {
            send_pay_link(tx, scope, &unpaid, *language, &mut changes).await?
        }
        UnpaidAction::RequestMandate { language } => {
            request_mandate(tx, scope, &unpaid, *language, &mut changes).await?
        }
        UnpaidAction::EmailPayer { message, language } => {
            email_payer(tx, scope, &unpaid, message, *language).await?
        }
    };
    let follow_up = UnpaidFollowUp {
        done_at: now,
        ..follow_up
    };
    let transaction = &mut unpaid.transaction;
    transaction.follow_ups.push(follow_up);
    transaction.updated_at = now;
    transaction_store::set_follow_ups(
        tx,
        &scope.merchant_id,
        scope.mode,
        &transaction.id,
        &transaction.follow_ups,
        now,
    )
    .await?;
    changes.insert(
        0,
        Change::TransactionUpserted {
            transaction: Box::new(unpaid.transaction.clone()),
        },
    );
    Ok(Effect {
        changes,
        id: Some(unpaid.transaction.id),
    })
}

fn follow_up(kind: UnpaidFollowUpKind) -> UnpaidFollowUp {
    UnpaidFollowUp {
        kind,
        done_at: 0,
        date: None,
        pay_page_id: None,
        e_mandate_request_id: None,
        email: None,
    }
}

/// Moves the payment's waiting re-presentation to the chosen day. Only the
/// newest unpaid of the payment has one waiting, and only a return the bank
/// allows again (02) leaves one.
async fn represent(
    tx: &mut Tx,
    scope: &Scope,
    unpaid: &Unpaid,
    date: &str,
    changes: &mut Vec<Change>,
) -> AppResult<UnpaidFollowUp> {
    let day = parse_iso_date(date.trim()).ok_or_else(|| invalid("date", ErrorCode::InvalidDate))?;
    let mut payment = payments::load(tx, scope, &unpaid.payment_id).await?;
    let newest = transaction_store::newest_unpaid_of_payment(
        tx,
        &scope.merchant_id,
        scope.mode,
        &unpaid.payment_id,
    )
    .await?;
    if payment.view.representation_cents.is_none()
        || newest.as_deref() != Some(unpaid.transaction.id.as_str())
    {
        return Err(AppError::Code(ErrorCode::RetryNotAllowed));
    }
    let today = stream_today(tx, scope).await?;
    representations::represent_on(tx, scope, &mut payment, day, today).await?;
    changes.push(payments::save(tx, scope, &payment).await?);
    Ok(UnpaidFollowUp {
        date: Some(iso_date(day)),
        ..follow_up(UnpaidFollowUpKind::Represented)
    })
}

fn line(words: &Value, key: &str, vars: &[(&str, &str)]) -> String {
    text(words, &["unpaid_follow_up", key], vars)
}

/// A once-off pay page for the unpaid amount, by card or instant EFT, used
/// once, and its link mailed to the payer.
async fn send_pay_link(
    tx: &mut Tx,
    scope: &Scope,
    unpaid: &Unpaid,
    language: Language,
    changes: &mut Vec<Change>,
) -> AppResult<UnpaidFollowUp> {
    let t = &unpaid.transaction;
    let today = stream_today(tx, scope).await?;
    let amount = commerce::receipt::rands(t.amount_cents);
    let day = long_date(&t.action_date, language);
    let vars = [
        ("reference", t.reference.as_str()),
        ("amount", amount.as_str()),
        ("date", day.as_str()),
    ];
    let payer_words = words(language);
    let input = PayPageInput {
        title: line(&payer_words, "page_title", &vars),
        description: line(&payer_words, "page_description", &vars),
        amount_mode: AmountMode::Fixed,
        amount_cents: Some(t.amount_cents),
        min_cents: None,
        max_cents: None,
        kind: PaymentKind::Once,
        interval: None,
        methods: vec![PaymentMethod::Card, PaymentMethod::InstantEft],
        expires_on: Some(iso_date(today + Duration::days(PAY_LINK_DAYS))),
        max_uses: Some(1),
        reference: t.reference.clone(),
        success_url: None,
        colour: PAY_LINK_COLOUR.to_string(),
    };
    let made = commerce::pages::create_page(tx, scope, &input).await?;
    let page_id = made
        .id
        .clone()
        .ok_or_else(|| AppError::Internal("a pay page made without an id".into()))?;
    changes.extend(made.changes);
    let merchant = crate::store::e_mandates::merchant_name(tx, &scope.merchant_id).await?;
    let link = format!("{}/pay/{page_id}", scope.origin.trim_end_matches('/'));
    let last_day = long_date(input.expires_on.as_deref().unwrap_or_default(), language);
    let mail = compose_action(
        "unpaid_pay_link",
        language,
        &unpaid.customer.email,
        &[
            ("name", unpaid.customer.name.as_str()),
            ("merchant", merchant.as_str()),
            ("last_day", last_day.as_str()),
            ("reference", t.reference.as_str()),
            ("amount", amount.as_str()),
            ("date", day.as_str()),
        ],
        &link,
    );
    enqueue(tx, &mail).await?;
    Ok(UnpaidFollowUp {
        pay_page_id: Some(page_id),
        email: Some(unpaid.customer.email.clone()),
        ..follow_up(UnpaidFollowUpKind::PayLinkSent)
    })
}

/// An e-mandate request on the payment's terms, to the payer, who may choose
/// a later first collection. A once-off debit has no terms to repeat: a pay
/// link suits it.
async fn request_mandate(
    tx: &mut Tx,
    scope: &Scope,
    unpaid: &Unpaid,
    language: Language,
    changes: &mut Vec<Change>,
) -> AppResult<UnpaidFollowUp> {
    let payment = payments::load(tx, scope, &unpaid.payment_id).await?;
    let interval: Interval = match (payment.view.kind, payment.view.interval) {
        (PaymentKind::Recurring, Some(interval)) => interval,
        _ => return Err(AppError::Code(ErrorCode::ActionNotAllowed)),
    };
    let method = match payment.view.method {
        PaymentMethod::RegisteredMandate => PaymentMethod::RegisteredMandate,
        _ => PaymentMethod::Debicheck,
    };
    let today = stream_today(tx, scope).await?;
    let start = next_business_day_on_or_after(today + Duration::days(NEW_MANDATE_LEAD_DAYS));
    let input = EMandateRequestInput {
        customer_id: Some(unpaid.customer.id.clone()),
        name: String::new(),
        email: String::new(),
        cellphone: String::new(),
        language,
        method,
        amount_cents: payment.view.amount_cents,
        max_cents: None,
        interval,
        start_date: iso_date(start),
        payer_may_change: vec![EMandateChangeable::StartDate],
    };
    let made = e_mandates::request_e_mandate(tx, scope, &input).await?;
    let request_id = made.id.clone();
    changes.extend(made.changes);
    Ok(UnpaidFollowUp {
        e_mandate_request_id: request_id,
        email: Some(unpaid.customer.email.clone()),
        ..follow_up(UnpaidFollowUpKind::MandateRequested)
    })
}

/// The merchant's message, under a line that says which debit it is about.
async fn email_payer(
    tx: &mut Tx,
    scope: &Scope,
    unpaid: &Unpaid,
    message: &str,
    language: Language,
) -> AppResult<UnpaidFollowUp> {
    let message = message.trim();
    rules::required(message, MESSAGE_MAX)
        .and_then(|()| rules::storable(message, MESSAGE_MAX))
        .map_err(|code| invalid("message", code))?;
    let merchant = crate::store::e_mandates::merchant_name(tx, &scope.merchant_id).await?;
    let mail = compose_message(&merchant, unpaid, message, language);
    enqueue(tx, &mail).await?;
    Ok(UnpaidFollowUp {
        email: Some(unpaid.customer.email.clone()),
        ..follow_up(UnpaidFollowUpKind::PayerEmailed)
    })
}

fn compose_message(
    merchant: &str,
    unpaid: &Unpaid,
    message: &str,
    language: Language,
) -> OutgoingMail {
    let t = &unpaid.transaction;
    let all = words(language);
    let amount = commerce::receipt::rands(t.amount_cents);
    let day = long_date(&t.action_date, language);
    let vars = [
        ("name", unpaid.customer.name.as_str()),
        ("merchant", merchant),
        ("reference", t.reference.as_str()),
        ("amount", amount.as_str()),
        ("date", day.as_str()),
    ];
    let greeting = text(&all, &["greeting"], &vars);
    let about = line(&all, "message_about", &vars);
    let reply = line(&all, "message_reply", &vars);
    let plain = format!("{greeting}\n\n{about}\n\n{message}\n\n{reply}\n");
    let paragraphs: String = message
        .split("\n\n")
        .map(|p| format!("<p>{}</p>", escape(p).replace('\n', "<br>")))
        .collect();
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><body style=\"font-family:sans-serif;color:#18181b\">\
         <p>{greeting}</p><p>{about}</p>{paragraphs}<p style=\"font-size:12px;color:#52525b\">{reply}</p></body></html>",
        lang = language.tag(),
        greeting = escape(&greeting),
        about = escape(&about),
        reply = escape(&reply),
    );
    OutgoingMail {
        to: unpaid.customer.email.clone(),
        subject: line(&all, "message_subject", &vars),
        text: plain,
        html,
    }
}
