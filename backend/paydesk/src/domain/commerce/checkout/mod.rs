//! The payer's checkout on the public pay page. Every submitted form is an
//! attempt, keyed by the form's attempt key: the attempt, its order and
//! transaction, and the charge are one event of the merchant's stream,
//! written under its `seq` lock, so a double submit finds the first attempt
//! and never charges twice. The caller publishes what was written.

mod attempts;
mod expiry;
mod form;
mod public_page;

use protocol::{Change, ErrorCode, Language, Mode, PayFailure, PaymentKind};

use super::card_schedules;
use super::charges::{ChargeRequest, Source, open_charge, settle};
use super::receipt;
use crate::domain::calendar::iso_date;
use crate::domain::debits;
use crate::error::{AppError, AppResult};
use crate::ids::new_id;
use crate::store::pay_attempts::{self, AttemptRow};
use crate::store::pay_pages;
use crate::store::stream::{self, Actor, Cause, StreamKey, Work, Written};
use crate::store::transactions::{self, TransactionRecord};
use crate::store::{Db, Tx, cards, customers, mail, orders};
use attempts::{attempt_of_page, read_attempt, source_label, to_attempt};
use form::{CheckedSource, answers_json, check_form};

pub use attempts::{Attempt, AttemptStatus, find_attempt};
pub use expiry::{PAYER_STEP_EXPIRY_MS, abandon_expired, has_expired};
pub use form::{
    KeptAnswers, PayForm, PendingCard, bank_name, bank_of, offered_methods, parse_rands,
};
pub use public_page::{PageState, PublicPage, forget_public_page, open_page, open_page_cached};

pub enum Submitted {
    /// The form has mistakes; nothing was written.
    Invalid(Vec<(&'static str, ErrorCode)>),
    /// A new attempt, or the one this form's key already made.
    Attempt(Box<Attempt>),
}

/// The payer's answer at the simulated 3-D Secure or bank step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepAnswer {
    Approve,
    Refuse,
}

/// The stream a page's payments are written to.
pub fn stream(page: &PublicPage) -> StreamKey {
    StreamKey::new(page.merchant_id.clone(), page.page.mode)
}

/// A successful charge, as `on_success` completes it.
struct Paid<'a> {
    order: &'a mut protocol::Order,
    record: &'a mut TransactionRecord,
    card: Option<&'a PendingCard>,
    answers: &'a KeptAnswers,
}

/// What a successful checkout also does: the page counts a use, the payer of
/// a recurring card page is kept as a customer with the card on file, and a
/// receipt is queued when the payer gave an address.
async fn on_success(
    tx: &mut Tx,
    page: &PublicPage,
    paid: Paid<'_>,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    let Paid {
        order,
        record,
        card,
        answers,
    } = paid;
    let (merchant_id, mode) = (page.merchant_id.as_str(), page.page.mode);
    let now = crate::store::clocks::stream_now_ms(&mut **tx, merchant_id, mode).await?;
    pay_pages::count_use(tx, merchant_id, mode, &page.page.id, now).await?;
    forget_public_page(&page.page.id);
    if let Some(updated) = pay_pages::find_page(&mut **tx, merchant_id, mode, &page.page.id).await?
    {
        changes.push(Change::PayPageUpserted {
            page: Box::new(updated),
        });
    }
    if let (Some(card), PaymentKind::Recurring, Some(email)) =
        (card, page.page.kind, order.payer_email.clone())
    {
        let customer = payer_customer(tx, merchant_id, mode, &order.payer_name, &email).await?;
        if let Some(customer) = customer.1 {
            changes.push(Change::CustomerUpserted {
                customer: Box::new(customer),
            });
        }
        let stored = cards::StoredCard {
            card: protocol::Card {
                id: new_id("card"),
                mode,
                customer_id: customer.0.clone(),
                customer_name: order.payer_name.clone(),
                brand: card.brand,
                last_four: card.last_four.clone(),
                expiry_month: card.expiry_month,
                expiry_year: card.expiry_year,
                page_id: Some(page.page.id.clone()),
                // The checkout was the first charge; the scheduler makes the rest.
                schedule: Some(card_schedules::after_checkout(
                    order.amount_cents,
                    page.page
                        .interval
                        .unwrap_or(protocol::PageInterval::Monthly),
                    schedule_reference(&page.page),
                    page.today,
                )),
                created_at: now,
            },
            token: card.token.clone(),
            payer: cards::CardPayer {
                email: Some(email.clone()),
                language: Language::parse(&answers.language).unwrap_or_default(),
                // The checkout was the first collection: nothing to announce.
                first_reminder_sent: true,
                ..Default::default()
            },
        };
        cards::insert_card(tx, merchant_id, &stored).await?;
        changes.push(Change::CardUpserted {
            card: Box::new(stored.card),
        });
        order.customer_id = Some(customer.0.clone());
        record.view.customer_id = Some(customer.0);
    }
    if let Some(email) = &order.payer_email {
        let language = Language::parse(&answers.language).unwrap_or(Language::En);
        let message = receipt::compose(
            &page.merchant_name,
            &page.page,
            order,
            record,
            email,
            language,
        );
        mail::enqueue(tx, &message).await?;
    }
    Ok(())
}

/// What the scheduled charges of a recurring page are called.
fn schedule_reference(page: &protocol::PayPage) -> &str {
    if page.reference.trim().is_empty() {
        &page.title
    } else {
        &page.reference
    }
}

/// The customer a recurring payer becomes: the merchant's customer with
/// that address, or a new one (returned too, for the delta).
async fn payer_customer(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    name: &str,
    email: &str,
) -> AppResult<(String, Option<protocol::Customer>)> {
    if let Some(id) = customers::find_active_id_by_email(tx, merchant_id, mode, email).await? {
        return Ok((id, None));
    }
    let input = protocol::CustomerInput {
        name: name.to_string(),
        email: email.to_string(),
        cellphone: String::new(),
        id_type: None,
        id_number: String::new(),
        address_line1: String::new(),
        address_line2: String::new(),
        city: String::new(),
        postal_code: String::new(),
        reference: String::new(),
    };
    let id = new_id("cus");
    let now = crate::store::clocks::stream_now_ms(&mut **tx, merchant_id, mode).await?;
    let customer = customers::insert_customer(tx, merchant_id, mode, &id, &input, now).await?;
    Ok((id, Some(customer)))
}

/// The transaction and order an attempt wrote, after whatever else it
/// changed (the page's uses, a customer, a card), as one event's changes.
fn attempt_changes(
    mut changes: Vec<Change>,
    record: &TransactionRecord,
    order: protocol::Order,
) -> Vec<Change> {
    changes.push(Change::TransactionUpserted {
        transaction: Box::new(record.view.clone()),
    });
    changes.push(Change::OrderUpserted {
        order: Box::new(order),
    });
    changes
}

/// Who the event of a payer's step is recorded as.
fn payer(page: &PublicPage, address: Option<String>) -> Cause {
    Cause {
        actor: Actor::Payer {
            page_id: page.page.id.clone(),
        },
        command_id: None,
        address,
    }
}

/// Checks and runs one submitted form. Nothing is written for a form with
/// mistakes or for a repeat of one already submitted.
pub async fn submit(
    db: &Db,
    page: &PublicPage,
    form: &PayForm,
    attempt_key: &str,
    language: Language,
    address: Option<String>,
) -> AppResult<Written<Submitted>> {
    let checked = match check_form(page, form, language) {
        Ok(checked) => checked,
        Err(errors) => {
            return Ok(Written {
                seq: None,
                changes: Vec::new(),
                value: Submitted::Invalid(errors),
            });
        }
    };
    let cause = payer(page, address);
    stream::write(db, &stream(page), &cause, async |tx: &mut Tx, _seq| {
        // Another submit of this form may have committed while we checked.
        let (merchant_id, mode) = (page.merchant_id.as_str(), page.page.mode);
        if let Some(row) =
            pay_attempts::find_by_key(&mut **tx, merchant_id, mode, &page.page.id, attempt_key)
                .await?
        {
            let attempt = read_attempt(&mut **tx, page, row).await?;
            return Ok(Work::Unchanged(Submitted::Attempt(Box::new(attempt))));
        }
        // The last use may have gone while the payer typed.
        let fresh = pay_pages::find_page(&mut **tx, merchant_id, mode, &page.page.id).await?;
        let refusal = match fresh {
            None => Some(ErrorCode::NotFound),
            Some(p) if !p.active => Some(ErrorCode::NotFound),
            Some(p) => match public_page::state_of(&p, page.today) {
                PageState::Open => None,
                PageState::Expired => Some(ErrorCode::PageExpired),
                PageState::UsedUp => Some(ErrorCode::PageUsedUp),
            },
        };
        if let Some(code) = refusal {
            return Err(AppError::Code(code));
        }
        let today = iso_date(page.today);
        let now = crate::store::clocks::stream_now_ms(&mut **tx, merchant_id, mode).await?;
        let source = match &checked.source {
            CheckedSource::Card(card, _) => Source::Card {
                brand: card.brand,
                last_four: card.last_four.clone(),
            },
            CheckedSource::Bank(bank) => Source::Bank(*bank),
        };
        let request = ChargeRequest {
            mode,
            page_id: Some(&page.page.id),
            description: &page.page.title,
            amount_cents: checked.amount_cents,
            reference: &page.page.reference,
            payer_name: &checked.name,
            payer_email: checked.email.as_deref(),
            customer_id: None,
            kind: page.page.kind,
            method: checked.method,
            source,
            today: &today,
            now,
        };
        let (mut order, mut record) = open_charge(&request);
        let mut answers = checked.answers.clone();
        let mut changes = Vec::new();
        let status = match &checked.source {
            CheckedSource::Card(card, behaviour) => {
                let pending = PendingCard {
                    token: card.token.clone(),
                    brand: card.brand,
                    last_four: card.last_four.clone(),
                    expiry_month: card.expiry_month,
                    expiry_year: card.expiry_year,
                };
                match super::acquirer::outcome(*behaviour) {
                    None => {
                        answers.pending_card = Some(pending);
                        AttemptStatus::AwaitingThreeDs
                    }
                    Some(result) => {
                        settle(&mut order, &mut record, result, (page.today, now))?;
                        if result.is_ok() {
                            let paid = Paid {
                                order: &mut order,
                                record: &mut record,
                                card: Some(&pending),
                                answers: &answers,
                            };
                            on_success(tx, page, paid, &mut changes).await?;
                            AttemptStatus::Succeeded
                        } else {
                            AttemptStatus::Failed
                        }
                    }
                }
            }
            CheckedSource::Bank(_) => AttemptStatus::AwaitingBank,
        };
        let row = AttemptRow {
            id: new_id("att"),
            merchant_id: merchant_id.to_string(),
            mode,
            page_id: page.page.id.clone(),
            attempt_key: attempt_key.to_string(),
            method: checked.method.as_str().to_string(),
            status: status.as_str().to_string(),
            order_id: order.id.clone(),
            transaction_id: Some(record.view.id.clone()),
            form: answers_json(&answers)?,
            failure: order.failure.map(|f| crate::store::sql::wire_name(&f)),
            // A step left to the payer expires; an answered attempt has none.
            expires_at: expiry::is_waiting(status).then(|| expiry::expiry_from(page.now_ms)),
            created_at: now,
            updated_at: now,
        };
        orders::insert_order(tx, merchant_id, &order).await?;
        debits::insert_transaction(tx, merchant_id, mode, &record).await?;
        if !pay_attempts::insert_attempt(tx, &row).await? {
            // Unreachable while the stream lock is held; refuse rather than double.
            return Err(AppError::Internal("pay attempt raced its own key".into()));
        }
        let attempt = to_attempt(&row, record.view.amount_cents, source_label(&record))?;
        let changes = attempt_changes(changes, &record, order);
        Ok(Work::changed(
            changes,
            Submitted::Attempt(Box::new(attempt)),
        ))
    })
    .await
}

/// The payer's answer at the simulated 3-D Secure or bank step. A second
/// answer (a double click, a back button) changes nothing.
pub async fn answer_step(
    db: &Db,
    page: &PublicPage,
    attempt_id: &str,
    answer: StepAnswer,
    address: Option<String>,
) -> AppResult<Written<Option<Attempt>>> {
    if !crate::ids::is_well_formed_id(attempt_id) {
        return Ok(Written {
            seq: None,
            changes: Vec::new(),
            value: None,
        });
    }
    let cause = payer(page, address);
    stream::write(db, &stream(page), &cause, async |tx: &mut Tx, _seq| {
        let Some(mut row) = attempt_of_page(&mut **tx, page, attempt_id).await? else {
            return Ok(Work::Unchanged(None));
        };
        let status = AttemptStatus::parse(&row.status);
        if !expiry::is_waiting(status) {
            let attempt = read_attempt(&mut **tx, page, row).await?;
            return Ok(Work::Unchanged(Some(attempt)));
        }
        // Answered too late: the step expired, and nothing is charged.
        if has_expired(&row, page.now_ms) {
            let changes = expiry::abandon(tx, &mut row, page.today).await?;
            let attempt = read_attempt(&mut **tx, page, row).await?;
            return Ok(Work::changed(changes, Some(attempt)));
        }
        let (merchant_id, mode) = (page.merchant_id.as_str(), page.page.mode);
        let mut order = orders::find_order(&mut **tx, merchant_id, mode, &row.order_id)
            .await?
            .ok_or_else(|| AppError::Internal(format!("attempt {} has no order", row.id)))?;
        let transaction_id = row.transaction_id.clone().unwrap_or_default();
        let mut record =
            transactions::find_transaction(&mut **tx, merchant_id, mode, &transaction_id)
                .await?
                .ok_or_else(|| {
                    AppError::Internal(format!("attempt {} has no transaction", row.id))
                })?;
        let answers: KeptAnswers = serde_json::from_str(&row.form).unwrap_or_default();
        let result = match (answer, status) {
            (StepAnswer::Approve, _) => Ok(()),
            (StepAnswer::Refuse, AttemptStatus::AwaitingThreeDs) => {
                Err(PayFailure::AuthenticationFailed)
            }
            (StepAnswer::Refuse, _) => Err(PayFailure::CancelledByPayer),
        };
        let now = crate::store::clocks::stream_now_ms(&mut **tx, merchant_id, mode).await?;
        settle(&mut order, &mut record, result, (page.today, now))?;
        let mut changes = Vec::new();
        if result.is_ok() {
            let paid = Paid {
                order: &mut order,
                record: &mut record,
                card: answers.pending_card.as_ref(),
                answers: &answers,
            };
            on_success(tx, page, paid, &mut changes).await?;
        }
        let from = row.status.clone();
        row.status = if result.is_ok() {
            AttemptStatus::Succeeded
        } else {
            AttemptStatus::Failed
        }
        .as_str()
        .to_string();
        row.failure = result.err().map(|f| crate::store::sql::wire_name(&f));
        row.updated_at = now;
        if !pay_attempts::advance_attempt(tx, &row, &from).await? {
            return Err(AppError::Internal(
                "pay attempt answered twice under the lock".into(),
            ));
        }
        orders::update_order(tx, merchant_id, &order).await?;
        debits::save_transaction(tx, merchant_id, mode, &record, row.updated_at).await?;
        let attempt = to_attempt(&row, record.view.amount_cents, source_label(&record))?;
        let changes = attempt_changes(changes, &record, order);
        Ok(Work::changed(changes, Some(attempt)))
    })
    .await
}
