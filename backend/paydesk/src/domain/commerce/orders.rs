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
use crate::ids::now_ms;
use crate::store::sql::PageRequest;
use crate::store::{Db, Tx, orders as store, pay_attempts, transactions};

pub async fn act_on_order(
    tx: &mut Tx,
    scope: &Scope,
    order_id: &str,
    action: OrderAction,
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
            // The money leaves the merchant's balance with the refund.
            let today = stream_today(tx, scope).await?;
            ledger::post_refund(tx, scope, &order, today).await?;
            order.status = OrderStatus::Refunded;
            order.updated_at = now_ms();
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
                today,
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
    let order = store::find_order(
        &db.pool,
        &scope.merchant_id,
        scope.mode,
        checked_id(order_id)?,
    )
    .await?
    .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(ReplyBody::Order {
        order: Box::new(order),
    })
}
