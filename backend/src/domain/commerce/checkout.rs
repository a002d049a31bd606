//! The payer's checkout on the public pay page. Every submitted form is an
//! attempt, keyed by the form's attempt key: the attempt, its order and
//! transaction, and the charge commit together under the merchant stream's
//! `seq` lock, so a double submit finds the first attempt and never charges
//! twice. Writes go through the same outside-the-actor path as the
//! scheduler, and the merchant's tabs see them live.

use protocol::{
    AmountMode, BankId, Change, ErrorCode, Language, Mode, PayFailure, PayPage, PaymentKind,
    PaymentMethod,
};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;
use std::time::Duration;

use moka::sync::Cache;
use sqlx::Row;
use time::Date;

use super::super::calendar::iso_date;
use super::super::clock::BusinessClock;
use super::super::imports::lookups::BANKS;
use super::super::rules;
use super::acquirer::{self, Behaviour, Tokenised};
use super::charges::{ChargeRequest, Source, open_charge, settle};
use super::receipt;
use crate::error::{AppError, AppResult};
use crate::ids::{new_id, now_ms};
use crate::live::messages::StreamKey;
use crate::live::outside::{append_delta, take_seq, tell_actor};
use crate::live::registry::MerchantRegistry;
use crate::store::pay_attempts::{self, AttemptRow};
use crate::store::pay_pages::{self, PublicRow, StoredPage};
use crate::store::transactions::{self, TransactionRecord};
use crate::store::{Db, Tx, cards, customers, mail, orders};

const NAME_MAX: usize = 64;

/// Whether a page takes payments now. Inactive pages are not found at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageState {
    Open,
    Expired,
    UsedUp,
}

/// A page as a payer sees it.
pub struct PublicPage {
    pub merchant_id: String,
    pub merchant_name: String,
    pub page: PayPage,
    pub state: PageState,
    /// The merchant stream's business date.
    pub today: Date,
}

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptStatus {
    AwaitingThreeDs,
    AwaitingBank,
    Succeeded,
    Failed,
}

impl AttemptStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            AttemptStatus::AwaitingThreeDs => "awaiting_3ds",
            AttemptStatus::AwaitingBank => "awaiting_bank",
            AttemptStatus::Succeeded => "succeeded",
            AttemptStatus::Failed => "failed",
        }
    }

    fn parse(value: &str) -> AttemptStatus {
        match value {
            "awaiting_3ds" => AttemptStatus::AwaitingThreeDs,
            "awaiting_bank" => AttemptStatus::AwaitingBank,
            "succeeded" => AttemptStatus::Succeeded,
            _ => AttemptStatus::Failed,
        }
    }
}

/// An attempt as the pay page shows it.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub id: String,
    pub status: AttemptStatus,
    pub method: PaymentMethod,
    pub failure: Option<PayFailure>,
    pub answers: KeptAnswers,
    pub amount_cents: i64,
    pub order_id: String,
    /// The card's brand and last four, or the payer's bank, for the pages.
    pub source: Option<String>,
}

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

fn stream(page: &PublicPage) -> StreamKey {
    StreamKey {
        merchant_id: page.merchant_id.clone(),
        mode: page.page.mode,
    }
}

fn state_of(page: &PayPage, today: Date) -> PageState {
    let expired = page
        .expires_on
        .as_deref()
        .is_some_and(|day| day < iso_date(today).as_str());
    if expired {
        PageState::Expired
    } else if page.max_uses.is_some_and(|max| page.uses >= max) {
        PageState::UsedUp
    } else {
        PageState::Open
    }
}

/// The page for `/pay/{id}`; none when unknown, or deactivated unless
/// `even_inactive` (a payer's outcome page stays readable).
pub async fn open_page(
    db: &Db,
    clock: BusinessClock,
    page_id: &str,
    even_inactive: bool,
) -> AppResult<Option<PublicPage>> {
    if !crate::ids::is_well_formed_id(page_id) {
        return Ok(None);
    }
    // The page, its merchant's name and its clock in one statement.
    let row = pay_pages::find_public(&db.pool, page_id).await?;
    Ok(row.and_then(|row| public_page(row, clock, even_inactive)))
}

fn public_page(row: PublicRow, clock: BusinessClock, even_inactive: bool) -> Option<PublicPage> {
    let PublicRow {
        stored: StoredPage { merchant_id, page },
        merchant_name,
        offset_days,
    } = row;
    if !page.active && !even_inactive {
        return None;
    }
    let today = clock.today(page.mode, offset_days);
    Some(PublicPage {
        merchant_name,
        state: state_of(&page, today),
        merchant_id,
        page,
        today,
    })
}

/// How long a page read for a payer's first GET is reused. Every payer of a
/// shared link asks for the same row. A merchant's change on this node drops
/// the page at once; on another node it shows within this time. A submit
/// always reads the page afresh inside its transaction, so nothing is sold
/// on a stale read.
const PUBLIC_PAGE_TTL: Duration = Duration::from_secs(2);

/// Pages (and unknown ids) read lately, by id, for the whole process.
fn public_pages() -> &'static Cache<String, Option<PublicRow>> {
    static PAGES: OnceLock<Cache<String, Option<PublicRow>>> = OnceLock::new();
    PAGES.get_or_init(|| {
        Cache::builder()
            .max_capacity(10_000)
            .time_to_live(PUBLIC_PAGE_TTL)
            .build()
    })
}

/// Called by the merchant's commands on a page: the next GET reads it anew.
pub fn forget_public_page(page_id: &str) {
    public_pages().invalidate(page_id);
}

/// [`open_page`] for the form's GET, through the short-lived cache.
pub async fn open_page_cached(
    db: &Db,
    clock: BusinessClock,
    page_id: &str,
) -> AppResult<Option<PublicPage>> {
    if !crate::ids::is_well_formed_id(page_id) {
        return Ok(None);
    }
    let row = match public_pages().get(page_id) {
        Some(row) => row,
        None => {
            let row = pay_pages::find_public(&db.pool, page_id).await?;
            public_pages().insert(page_id.to_string(), row.clone());
            row
        }
    };
    Ok(row.and_then(|row| public_page(row, clock, false)))
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
struct CheckedForm {
    method: PaymentMethod,
    amount_cents: i64,
    name: String,
    email: Option<String>,
    source: CheckedSource,
    answers: KeptAnswers,
}

enum CheckedSource {
    Card(Tokenised, Behaviour),
    Bank(BankId),
}

fn check_form(
    page: &PublicPage,
    form: &PayForm,
    language: Language,
) -> Result<CheckedForm, Vec<(&'static str, ErrorCode)>> {
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
            match acquirer::check_card(&form.card_number, &form.expiry, &form.cvv, page.today) {
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

fn answers_json(answers: &KeptAnswers) -> AppResult<String> {
    serde_json::to_string(answers).map_err(|e| AppError::Internal(format!("pay attempt: {e}")))
}

fn to_attempt(row: &AttemptRow, amount_cents: i64, source: Option<String>) -> AppResult<Attempt> {
    Ok(Attempt {
        id: row.id.clone(),
        status: AttemptStatus::parse(&row.status),
        method: PaymentMethod::parse(&row.method)
            .ok_or_else(|| AppError::Internal(format!("attempt method {}", row.method)))?,
        failure: row
            .failure
            .as_deref()
            .and_then(crate::store::sql::from_wire_name),
        answers: serde_json::from_str(&row.form).unwrap_or_default(),
        amount_cents,
        order_id: row.order_id.clone(),
        source,
    })
}

fn source_label(record: &TransactionRecord) -> Option<String> {
    let view = &record.view;
    match (view.card_brand, view.bank) {
        (Some(brand), _) => Some(format!(
            "{} •••• {}",
            acquirer::brand_name(brand),
            view.account_last_digits
        )),
        (None, Some(bank)) => Some(bank_name(bank).to_string()),
        _ => None,
    }
}

/// Reads an attempt with what the pages show of it.
async fn read_attempt<'e, E>(executor: E, page: &PublicPage, row: AttemptRow) -> AppResult<Attempt>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let record = match &row.transaction_id {
        Some(id) => {
            transactions::find_transaction(executor, &page.merchant_id, page.page.mode, id).await?
        }
        None => None,
    };
    let amount = record.as_ref().map_or(0, |r| r.view.amount_cents);
    let source = record.as_ref().and_then(source_label);
    to_attempt(&row, amount, source)
}

pub async fn find_attempt(
    db: &Db,
    page: &PublicPage,
    attempt_id: &str,
) -> AppResult<Option<Attempt>> {
    if !crate::ids::is_well_formed_id(attempt_id) {
        return Ok(None);
    }
    let Some(row) = attempt_of_page(&db.pool, page, attempt_id).await? else {
        return Ok(None);
    };
    Ok(Some(read_attempt(&db.pool, page, row).await?))
}

/// One attempt of this page, in its merchant and mode.
async fn attempt_of_page<'e, E>(
    executor: E,
    page: &PublicPage,
    attempt_id: &str,
) -> AppResult<Option<AttemptRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    pay_attempts::find_attempt(
        executor,
        &page.merchant_id,
        page.page.mode,
        &page.page.id,
        attempt_id,
    )
    .await
}

/// What a successful checkout also does: the page counts a use, the payer of
/// a recurring card page is kept as a customer with the card on file, and a
/// receipt is queued when the payer gave an address.
async fn on_success(
    tx: &mut Tx,
    page: &PublicPage,
    order: &mut protocol::Order,
    record: &mut TransactionRecord,
    card: Option<&PendingCard>,
    answers: &KeptAnswers,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    let (merchant_id, mode) = (page.merchant_id.as_str(), page.page.mode);
    let now = now_ms();
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
                created_at: now,
            },
            token: card.token.clone(),
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

/// The customer a recurring payer becomes: the merchant's customer with
/// that address, or a new one (returned too, for the delta).
async fn payer_customer(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    name: &str,
    email: &str,
) -> AppResult<(String, Option<protocol::Customer>)> {
    let known = sqlx::query(
        "SELECT id FROM customers WHERE merchant_id = $1 AND mode = $2 AND email = $3 AND archived_at IS NULL \
         ORDER BY id LIMIT 1",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(email)
    .fetch_optional(&mut **tx)
    .await?;
    if let Some(row) = known {
        return Ok((row.get("id"), None));
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
    let customer = customers::insert_customer(tx, merchant_id, mode, &id, &input, now_ms()).await?;
    Ok((id, Some(customer)))
}

/// What an attempt changed: its transaction and order, after whatever else
/// (the page's uses, a customer, a card).
struct Outcome<'a> {
    record: &'a TransactionRecord,
    order: protocol::Order,
    changes: Vec<Change>,
}

/// Commits the outcome as one delta of the page's merchant stream and tells
/// this node's tabs.
async fn commit(
    mut tx: Tx,
    db: &Db,
    registry: &MerchantRegistry,
    key: &StreamKey,
    seq: u64,
    outcome: Outcome<'_>,
) -> AppResult<()> {
    let mut changes = outcome.changes;
    changes.push(Change::TransactionUpserted {
        transaction: Box::new(outcome.record.view.clone()),
    });
    changes.push(Change::OrderUpserted {
        order: Box::new(outcome.order),
    });
    append_delta(&mut tx, db, key, seq, &changes).await?;
    tx.commit().await?;
    tell_actor(registry, key, seq);
    Ok(())
}

/// Checks and runs one submitted form.
pub async fn submit(
    db: &Db,
    registry: &MerchantRegistry,
    page: &PublicPage,
    form: &PayForm,
    attempt_key: &str,
    language: Language,
) -> AppResult<Submitted> {
    let checked = match check_form(page, form, language) {
        Ok(checked) => checked,
        Err(errors) => return Ok(Submitted::Invalid(errors)),
    };
    let key = stream(page);
    let mut tx = db.begin_write().await?;
    let seq = take_seq(&mut tx, &key).await?;
    // Another submit of this form may have committed while we checked.
    if let Some(row) = pay_attempts::find_by_key(
        &mut *tx,
        &page.merchant_id,
        page.page.mode,
        &page.page.id,
        attempt_key,
    )
    .await?
    {
        let attempt = read_attempt(&mut *tx, page, row).await?;
        tx.rollback().await?;
        return Ok(Submitted::Attempt(Box::new(attempt)));
    }
    // The last use may have gone while the payer typed.
    let fresh =
        pay_pages::find_page(&mut *tx, &page.merchant_id, page.page.mode, &page.page.id).await?;
    let refusal = match fresh {
        None => Some(ErrorCode::NotFound),
        Some(p) if !p.active => Some(ErrorCode::NotFound),
        Some(p) => match state_of(&p, page.today) {
            PageState::Open => None,
            PageState::Expired => Some(ErrorCode::PageExpired),
            PageState::UsedUp => Some(ErrorCode::PageUsedUp),
        },
    };
    if let Some(code) = refusal {
        tx.rollback().await?;
        return Err(AppError::Code(code));
    }
    let today = iso_date(page.today);
    let source = match &checked.source {
        CheckedSource::Card(card, _) => Source::Card {
            brand: card.brand,
            last_four: card.last_four.clone(),
        },
        CheckedSource::Bank(bank) => Source::Bank(*bank),
    };
    let request = ChargeRequest {
        mode: page.page.mode,
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
            match acquirer::outcome(*behaviour) {
                None => {
                    answers.pending_card = Some(pending);
                    AttemptStatus::AwaitingThreeDs
                }
                Some(result) => {
                    settle(&mut order, &mut record, result, page.today)?;
                    if result.is_ok() {
                        on_success(
                            &mut tx,
                            page,
                            &mut order,
                            &mut record,
                            Some(&pending),
                            &answers,
                            &mut changes,
                        )
                        .await?;
                        AttemptStatus::Succeeded
                    } else {
                        AttemptStatus::Failed
                    }
                }
            }
        }
        CheckedSource::Bank(_) => AttemptStatus::AwaitingBank,
    };
    let now = now_ms();
    let row = AttemptRow {
        id: new_id("att"),
        merchant_id: page.merchant_id.clone(),
        mode: page.page.mode,
        page_id: page.page.id.clone(),
        attempt_key: attempt_key.to_string(),
        method: checked.method.as_str().to_string(),
        status: status.as_str().to_string(),
        order_id: order.id.clone(),
        transaction_id: Some(record.view.id.clone()),
        form: answers_json(&answers)?,
        failure: order.failure.map(|f| crate::store::sql::wire_name(&f)),
        created_at: now,
        updated_at: now,
    };
    orders::insert_order(&mut tx, &page.merchant_id, &order).await?;
    transactions::insert_transaction(&mut tx, &page.merchant_id, page.page.mode, &record).await?;
    if !pay_attempts::insert_attempt(&mut tx, &row).await? {
        // Unreachable while the stream lock is held; refuse rather than double.
        tx.rollback().await?;
        return Err(AppError::Internal("pay attempt raced its own key".into()));
    }
    let outcome = Outcome {
        record: &record,
        order,
        changes,
    };
    commit(tx, db, registry, &key, seq, outcome).await?;
    let attempt = to_attempt(&row, record.view.amount_cents, source_label(&record))?;
    Ok(Submitted::Attempt(Box::new(attempt)))
}

/// The payer's answer at the simulated 3-D Secure or bank step. A second
/// answer (a double click, a back button) changes nothing.
pub async fn answer_step(
    db: &Db,
    registry: &MerchantRegistry,
    page: &PublicPage,
    attempt_id: &str,
    answer: StepAnswer,
) -> AppResult<Option<Attempt>> {
    if !crate::ids::is_well_formed_id(attempt_id) {
        return Ok(None);
    }
    let key = stream(page);
    let mut tx = db.begin_write().await?;
    let seq = take_seq(&mut tx, &key).await?;
    let Some(mut row) = attempt_of_page(&mut *tx, page, attempt_id).await? else {
        tx.rollback().await?;
        return Ok(None);
    };
    let status = AttemptStatus::parse(&row.status);
    if !matches!(
        status,
        AttemptStatus::AwaitingThreeDs | AttemptStatus::AwaitingBank
    ) {
        let attempt = read_attempt(&mut *tx, page, row).await?;
        tx.rollback().await?;
        return Ok(Some(attempt));
    }
    let (merchant_id, mode) = (page.merchant_id.as_str(), page.page.mode);
    let mut order = orders::find_order(&mut *tx, merchant_id, mode, &row.order_id)
        .await?
        .ok_or_else(|| AppError::Internal(format!("attempt {} has no order", row.id)))?;
    let transaction_id = row.transaction_id.clone().unwrap_or_default();
    let mut record = transactions::find_transaction(&mut *tx, merchant_id, mode, &transaction_id)
        .await?
        .ok_or_else(|| AppError::Internal(format!("attempt {} has no transaction", row.id)))?;
    let answers: KeptAnswers = serde_json::from_str(&row.form).unwrap_or_default();
    let result = match (answer, status) {
        (StepAnswer::Approve, _) => Ok(()),
        (StepAnswer::Refuse, AttemptStatus::AwaitingThreeDs) => {
            Err(PayFailure::AuthenticationFailed)
        }
        (StepAnswer::Refuse, _) => Err(PayFailure::CancelledByPayer),
    };
    settle(&mut order, &mut record, result, page.today)?;
    let mut changes = Vec::new();
    if result.is_ok() {
        on_success(
            &mut tx,
            page,
            &mut order,
            &mut record,
            answers.pending_card.as_ref(),
            &answers,
            &mut changes,
        )
        .await?;
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
    row.updated_at = now_ms();
    if !pay_attempts::advance_attempt(&mut tx, &row, &from).await? {
        tx.rollback().await?;
        return Err(AppError::Internal(
            "pay attempt answered twice under the lock".into(),
        ));
    }
    orders::update_order(&mut tx, merchant_id, &order).await?;
    transactions::update_transaction(&mut tx, merchant_id, mode, &record, row.updated_at).await?;
    let outcome = Outcome {
        record: &record,
        order,
        changes,
    };
    commit(tx, db, registry, &key, seq, outcome).await?;
    let attempt = to_attempt(&row, record.view.amount_cents, source_label(&record))?;
    Ok(Some(attempt))
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
