//! Cards on file: the acquirer's token, brand, last four and expiry, never
//! the number or CVV. Every function takes the merchant id and mode.

use protocol::{Card, Mode};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::sql::{Bind, PageRequest, Sql, opt_text, push_page, stored, wire_name};
use super::{Db, Tx};
use crate::error::AppResult;

const SELECT: &str =
    "SELECT k.*, c.name AS customer_name FROM cards k JOIN customers c ON c.id = k.customer_id";

/// A card with the token a charge sends.
pub struct StoredCard {
    pub card: Card,
    pub token: String,
}

fn from_row(row: &AnyRow) -> AppResult<StoredCard> {
    let card = Card {
        id: row.get("id"),
        mode: stored(&row.get::<String, _>("mode"), "mode")?,
        customer_id: row.get("customer_id"),
        customer_name: row.get("customer_name"),
        brand: stored(&row.get::<String, _>("brand"), "card brand")?,
        last_four: row.get("last_four"),
        expiry_month: row.get::<i64, _>("expiry_month").clamp(1, 12) as u8,
        expiry_year: row.get::<i64, _>("expiry_year").clamp(0, 9999) as u16,
        page_id: opt_text(row, "page_id"),
        created_at: row.get("created_at"),
    };
    Ok(StoredCard {
        card,
        token: row.get("token"),
    })
}

pub async fn insert_card(tx: &mut Tx, merchant_id: &str, stored: &StoredCard) -> AppResult<()> {
    let card = &stored.card;
    sqlx::query(
        "INSERT INTO cards (id, merchant_id, mode, customer_id, token, brand, last_four, expiry_month, expiry_year, \
         page_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(&card.id)
    .bind(merchant_id)
    .bind(card.mode.as_str())
    .bind(&card.customer_id)
    .bind(&stored.token)
    .bind(wire_name(&card.brand))
    .bind(&card.last_four)
    .bind(i64::from(card.expiry_month))
    .bind(i64::from(card.expiry_year))
    .bind(card.page_id.clone())
    .bind(card.created_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn delete_card(tx: &mut Tx, merchant_id: &str, mode: Mode, id: &str) -> AppResult<()> {
    sqlx::query("DELETE FROM cards WHERE merchant_id = $1 AND mode = $2 AND id = $3")
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn find_card<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<StoredCard>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let mut sql = Sql::in_stream(SELECT, "k", merchant_id, mode);
    sql.and("k.id = {}", Bind::Text(id.into()));
    let row = sql.query().fetch_optional(executor).await?;
    row.as_ref().map(from_row).transpose()
}

pub async fn list_cards(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    customer_id: Option<&str>,
    page: &PageRequest,
) -> AppResult<Vec<Card>> {
    let mut sql = Sql::in_stream(SELECT, "k", merchant_id, mode);
    sql.and_some(
        "k.customer_id = {}",
        customer_id.map(|c| Bind::Text(c.into())),
    );
    push_page(&mut sql, "k", page);
    let rows = sql.query().fetch_all(&db.pool).await?;
    rows.iter().map(|r| from_row(r).map(|s| s.card)).collect()
}
