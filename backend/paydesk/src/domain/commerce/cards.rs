//! Cards on file, merchant side: the list, forgetting a card, and charging
//! one for a recurring card payment.

use protocol::{Change, ErrorCode, PaymentKind, PaymentMethod, ReplyBody, SortOrder};

use super::super::calendar::iso_date;
use super::super::{Effect, Scope, checked_id, collection_rules as rule};
use super::acquirer;
use super::charges::{ChargeRequest, Source, open_charge, settle};
use crate::domain::debits;
use crate::domain::scope::stream_today;
use crate::error::{AppError, AppResult};
use crate::store::sql::PageRequest;
use crate::store::{Db, Tx, cards as store, orders};

const REFERENCE_MAX: usize = 30;

/// A card of this merchant stream (the session has refused viewers).
async fn load_card(tx: &mut Tx, scope: &Scope, card_id: &str) -> AppResult<store::StoredCard> {
    store::find_card(
        &mut **tx,
        &scope.merchant_id,
        scope.mode,
        checked_id(card_id)?,
    )
    .await?
    .ok_or(AppError::Code(ErrorCode::NotFound))
}

pub async fn remove_card(tx: &mut Tx, scope: &Scope, card_id: &str) -> AppResult<Effect> {
    let stored = load_card(tx, scope, card_id).await?;
    store::delete_card(tx, &scope.merchant_id, scope.mode, &stored.card.id).await?;
    Ok(Effect {
        changes: vec![Change::CardRemoved {
            id: stored.card.id.clone(),
            customer_id: stored.card.customer_id,
        }],
        id: Some(stored.card.id),
    })
}

/// A merchant-initiated charge: a new order and its transaction. A refusal
/// is an outcome (a failed order), not an error.
pub async fn charge_card(
    tx: &mut Tx,
    scope: &Scope,
    card_id: &str,
    amount_cents: i64,
    reference: &str,
) -> AppResult<Effect> {
    let stored = load_card(tx, scope, card_id).await?;
    let reference = reference.trim();
    let mut errors = Vec::new();
    if let Err(code) = rule::amount(amount_cents) {
        errors.push(protocol::FieldError {
            field: "amountCents".into(),
            code,
        });
    }
    if let Err(code) = rule::reference(reference, REFERENCE_MAX) {
        errors.push(protocol::FieldError {
            field: "reference".into(),
            code,
        });
    }
    if !errors.is_empty() {
        return Err(AppError::Invalid(errors));
    }
    let day = stream_today(tx, scope).await?;
    let card = &stored.card;
    if (i32::from(card.expiry_year), card.expiry_month) < (day.year(), u8::from(day.month())) {
        return Err(AppError::Code(ErrorCode::CardExpired));
    }
    let today = iso_date(day);
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let request = ChargeRequest {
        mode: scope.mode,
        page_id: card.page_id.as_deref(),
        description: reference,
        amount_cents,
        reference,
        payer_name: &card.customer_name,
        payer_email: None,
        customer_id: Some(&card.customer_id),
        kind: PaymentKind::Recurring,
        method: PaymentMethod::Card,
        source: Source::Card {
            brand: card.brand,
            last_four: card.last_four.clone(),
        },
        today: &today,
        now,
    };
    let (mut order, mut record) = open_charge(&request);
    settle(
        &mut order,
        &mut record,
        acquirer::charge_token(&stored.token),
        (day, now),
    )?;
    orders::insert_order(tx, &scope.merchant_id, &order).await?;
    debits::insert_transaction(tx, &scope.merchant_id, scope.mode, &record).await?;
    let id = order.id.clone();
    Ok(Effect {
        changes: vec![
            Change::TransactionUpserted {
                transaction: Box::new(record.view),
            },
            Change::OrderUpserted {
                order: Box::new(order),
            },
        ],
        id: Some(id),
    })
}

pub async fn list_cards(
    db: &Db,
    scope: &Scope,
    customer_id: Option<&str>,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    let customer_id = customer_id.map(checked_id).transpose()?;
    if let Some(customer_id) = customer_id {
        crate::domain::customers::require_customer(db, scope, customer_id).await?;
    }
    let page = PageRequest::new(SortOrder::Newest, cursor, limit)?;
    let items = store::list_cards(db, &scope.merchant_id, scope.mode, customer_id, &page).await?;
    let (items, next_cursor) = page.finish(items, |c| (c.created_at, 0, c.id.as_str()));
    Ok(ReplyBody::CardPage { items, next_cursor })
}
