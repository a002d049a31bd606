//! Commerce orders, merchant side: the list, one order, and refunding or
//! cancelling one.

use protocol::{
    Change, ErrorCode, OrderAction, OrderFilter, OrderStatus, PayFailure, ReplyBody, SortOrder,
};

use super::super::{Effect, Scope, checked_id};
use super::charges::settle;
use crate::domain::scope::stream_today;
use crate::domain::{debits, ledger};
use crate::error::{AppError, AppResult};
use crate::store::sql::PageRequest;
use crate::store::{Db, Tx, orders as store, pay_attempts, transactions};

pub async fn act_on_order(
    tx: &mut Tx,
    scope: &Scope,
    order_id: &str,
    action: OrderAction,
    amount_cents: Option<i64>,
) -> AppResult<Effect> {
    let mut order = store::find_order(
        &mut **tx,
        &scope.merchant_id,
        scope.mode,
        checked_id(order_id)?,
    )
    .await?
    .ok_or(AppError::Code(ErrorCode::NotFound))?;
    let mut changes = Vec::new();
    match (action, order.status) {
        (OrderAction::Refund, OrderStatus::Paid) => {
            // What is left is read inside this write transaction, which
            // holds the stream's lock: concurrent refunds see each other.
            let remaining = order.amount_cents - order.refunded_cents;
            let amount = amount_cents.unwrap_or(remaining);
            if amount <= 0 {
                return Err(AppError::field("amountCents", ErrorCode::InvalidAmount));
            }
            if amount > remaining {
                return Err(AppError::field(
                    "amountCents",
                    ErrorCode::RefundExceedsRemaining,
                ));
            }
            // The money leaves the merchant's balance with the refund.
            let today = stream_today(tx, scope).await?;
            let refund = ledger::post_refund(tx, scope, &order, amount, today).await?;
            store::insert_refund(tx, &scope.merchant_id, &order, &refund).await?;
            let fee_returned = ledger::fee_of(order.method).of(order.amount_cents)
                - order.fee_cents
                + refund.fee_return_cents;
            order.refunded_cents += amount;
            ledger::price_order(&mut order, fee_returned);
            if order.refunded_cents >= order.amount_cents {
                order.status = OrderStatus::Refunded;
            }
            order.updated_at = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
        }
        (OrderAction::Cancel, OrderStatus::Pending) => {
            // The payer left at the bank or 3-D Secure step: their attempt
            // and its transaction end too, so a late answer changes nothing.
            let today = stream_today(tx, scope).await?;
            let transaction_id = order.transaction_id.clone().unwrap_or_default();
            let mut record = transactions::find_transaction(
                &mut **tx,
                &scope.merchant_id,
                scope.mode,
                &transaction_id,
            )
            .await?
            .ok_or_else(|| AppError::Internal(format!("order {} has no transaction", order.id)))?;
            settle(
                &mut order,
                &mut record,
                Err(PayFailure::CancelledByPayer),
                (
                    today,
                    crate::domain::scope::stream_now_ms(&mut **tx, scope).await?,
                ),
            )?;
            debits::save_transaction(
                tx,
                &scope.merchant_id,
                scope.mode,
                &record,
                order.updated_at,
            )
            .await?;
            pay_attempts::fail_open_attempt_of_order(
                tx,
                &scope.merchant_id,
                scope.mode,
                &order.id,
                "cancelled_by_payer",
                order.updated_at,
            )
            .await?;
            changes.push(Change::TransactionUpserted {
                transaction: Box::new(record.view),
            });
        }
        _ => return Err(AppError::Code(ErrorCode::ActionNotAllowed)),
    }
    store::update_order(tx, &scope.merchant_id, &order).await?;
    order.refunds = store::refunds_of(&mut **tx, &scope.merchant_id, scope.mode, &order.id).await?;
    let id = order.id.clone();
    changes.push(Change::OrderUpserted {
        order: Box::new(order),
    });
    Ok(Effect {
        changes,
        id: Some(id),
    })
}

pub async fn list_orders(
    db: &Db,
    scope: &Scope,
    filter: &OrderFilter,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    let page = PageRequest::new(SortOrder::Newest, cursor, limit)?;
    let items = store::list_orders(db, &scope.merchant_id, scope.mode, filter, &page).await?;
    let (items, next_cursor) =
        page.finish(items, |o| (o.created_at, o.amount_cents, o.id.as_str()));
    Ok(ReplyBody::OrderPage { items, next_cursor })
}

pub async fn get_order(db: &Db, scope: &Scope, order_id: &str) -> AppResult<ReplyBody> {
    let mut order = store::find_order(
        &db.pool,
        &scope.merchant_id,
        scope.mode,
        checked_id(order_id)?,
    )
    .await?
    .ok_or(AppError::Code(ErrorCode::NotFound))?;
    order.refunds = store::refunds_of(&db.pool, &scope.merchant_id, scope.mode, &order.id).await?;
    Ok(ReplyBody::Order {
        order: Box::new(order),
    })
}
