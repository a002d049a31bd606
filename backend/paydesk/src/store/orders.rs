//! Commerce orders: one per pay-page checkout or card-on-file charge. Every
//! function takes the merchant id and mode.

use protocol::{Mode, Order, OrderFilter, OrderItem, OrderRefund};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::sql::{Bind, PageRequest, Sql, like_pattern, opt_text, push_page, stored, wire_name};
use super::{Db, Tx};
use crate::error::{AppError, AppResult};

// What an order refunded, and the part of its fee that came back, are sums
// of its refunds (CAST: PostgreSQL sums BIGINT into NUMERIC).
const SELECT: &str = "SELECT o.*, \
     (SELECT CAST(COALESCE(SUM(r.amount_cents), 0) AS BIGINT) FROM order_refunds r \
      WHERE r.merchant_id = o.merchant_id AND r.mode = o.mode AND r.order_id = o.id) AS refunded_cents, \
     (SELECT CAST(COALESCE(SUM(r.fee_return_cents), 0) AS BIGINT) FROM order_refunds r \
      WHERE r.merchant_id = o.merchant_id AND r.mode = o.mode AND r.order_id = o.id) AS fee_returned_cents \
     FROM orders o";

fn from_row(row: &AnyRow) -> AppResult<Order> {
    let items: Vec<OrderItem> = serde_json::from_str(&row.get::<String, _>("items"))
        .map_err(|e| AppError::Internal(format!("order items: {e}")))?;
    let mut order = Order {
        id: row.get("id"),
        mode: stored(&row.get::<String, _>("mode"), "mode")?,
        page_id: opt_text(row, "page_id"),
        items,
        amount_cents: row.get("amount_cents"),
        payer_name: row.get("payer_name"),
        payer_email: opt_text(row, "payer_email"),
        customer_id: opt_text(row, "customer_id"),
        method: stored(&row.get::<String, _>("method"), "method")?,
        status: stored(&row.get::<String, _>("status"), "order status")?,
        failure: opt_text(row, "failure")
            .map(|f| stored(&f, "failure"))
            .transpose()?,
        reference: row.get("reference"),
        transaction_id: opt_text(row, "transaction_id"),
        refunded_cents: row.get("refunded_cents"),
        fee_cents: 0,
        net_cents: 0,
        refunds: Vec::new(),
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
    };
    crate::domain::ledger::price_order(&mut order, row.get("fee_returned_cents"));
    Ok(order)
}

fn search_text(order: &Order) -> String {
    [
        order.payer_name.as_str(),
        order.payer_email.as_deref().unwrap_or(""),
        order.reference.as_str(),
    ]
    .join(" ")
    .to_lowercase()
}

pub async fn insert_order(tx: &mut Tx, merchant_id: &str, order: &Order) -> AppResult<()> {
    let items = serde_json::to_string(&order.items)
        .map_err(|e| AppError::Internal(format!("order items: {e}")))?;
    sqlx::query(
        "INSERT INTO orders (id, merchant_id, mode, page_id, items, amount_cents, payer_name, payer_email, \
         customer_id, method, status, failure, reference, transaction_id, search_text, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
    )
    .bind(&order.id)
    .bind(merchant_id)
    .bind(order.mode.as_str())
    .bind(order.page_id.clone())
    .bind(items)
    .bind(order.amount_cents)
    .bind(&order.payer_name)
    .bind(order.payer_email.clone())
    .bind(order.customer_id.clone())
    .bind(order.method.as_str())
    .bind(wire_name(&order.status))
    .bind(order.failure.map(|f| wire_name(&f)))
    .bind(&order.reference)
    .bind(order.transaction_id.clone())
    .bind(search_text(order))
    .bind(order.created_at)
    .bind(order.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes what moves after an order is made: its status, failure, customer
/// and transaction.
pub async fn update_order(tx: &mut Tx, merchant_id: &str, order: &Order) -> AppResult<()> {
    sqlx::query(
        "UPDATE orders SET status = $4, failure = $5, customer_id = $6, transaction_id = $7, updated_at = $8 \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(merchant_id)
    .bind(order.mode.as_str())
    .bind(&order.id)
    .bind(wire_name(&order.status))
    .bind(order.failure.map(|f| wire_name(&f)))
    .bind(order.customer_id.clone())
    .bind(order.transaction_id.clone())
    .bind(order.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn find_order<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<Order>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let mut sql = Sql::in_stream(SELECT, "o", merchant_id, mode);
    sql.and("o.id = {}", Bind::Text(id.into()));
    let row = sql.query().fetch_optional(executor).await?;
    row.as_ref().map(from_row).transpose()
}

pub async fn list_orders(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    filter: &OrderFilter,
    page: &PageRequest,
) -> AppResult<Vec<Order>> {
    let mut sql = Sql::in_stream(SELECT, "o", merchant_id, mode);
    sql.and_some(
        "o.status = {}",
        filter.status.map(|s| Bind::Text(wire_name(&s))),
    );
    sql.and_some(
        "o.method = {}",
        filter.method.map(|m| Bind::Text(m.as_str().into())),
    );
    sql.and_some("o.page_id = {}", filter.page_id.clone().map(Bind::Text));
    if let Some(search) = filter
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        sql.and(
            "o.search_text LIKE {} ESCAPE '\\'",
            Bind::Text(like_pattern(search)),
        );
    }
    push_page(&mut sql, "o", page);
    let rows = sql.query().fetch_all(&db.pool).await?;
    rows.iter().map(from_row).collect()
}

/// Records one refund of an order.
pub async fn insert_refund(
    tx: &mut Tx,
    merchant_id: &str,
    order: &Order,
    refund: &OrderRefund,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO order_refunds (id, merchant_id, mode, order_id, transaction_id, amount_cents, \
         fee_return_cents, refunded_on, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&refund.id)
    .bind(merchant_id)
    .bind(order.mode.as_str())
    .bind(&order.id)
    .bind(order.transaction_id.clone())
    .bind(refund.amount_cents)
    .bind(refund.fee_return_cents)
    .bind(&refund.refunded_on)
    .bind(refund.created_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// An order's refunds, oldest first.
pub async fn refunds_of<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    order_id: &str,
) -> AppResult<Vec<OrderRefund>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = sqlx::query(
        "SELECT id, amount_cents, fee_return_cents, refunded_on, created_at FROM order_refunds \
         WHERE merchant_id = $1 AND mode = $2 AND order_id = $3 ORDER BY created_at, id",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(order_id)
    .fetch_all(executor)
    .await?;
    Ok(rows
        .iter()
        .map(|row| OrderRefund {
            id: row.get("id"),
            amount_cents: row.get("amount_cents"),
            fee_return_cents: row.get("fee_return_cents"),
            refunded_on: row.get("refunded_on"),
            created_at: row.get("created_at"),
        })
        .collect())
}
