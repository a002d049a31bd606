//! Pay pages. Every merchant-side function takes the merchant id and mode;
//! only the public pay page looks a page up by id alone, to learn whose it is.

use protocol::{Mode, PayPage, PaymentMethod};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::sql::{Bind, PageRequest, Sql, flag, opt_int, opt_text, push_page, stored, wire_name};
use super::{Db, Tx};
use crate::error::AppResult;

/// The page's columns, shared by [`SELECT`] and [`find_public`]'s join.
macro_rules! page_columns {
    () => {
        "SELECT p.id, p.merchant_id, p.mode, p.title, p.description, p.amount_mode, p.amount_cents, \
     p.min_cents, p.max_cents, p.kind, p.page_interval, p.methods, p.expires_on, p.max_uses, p.uses, p.reference, \
     p.success_url, p.colour, p.logo_version, p.active, p.created_at, p.updated_at, p.version"
    };
}
const SELECT: &str = concat!(page_columns!(), " FROM pay_pages p");

/// A page and the merchant stream it belongs to.
#[derive(Clone)]
pub struct StoredPage {
    pub merchant_id: String,
    pub page: PayPage,
}

fn methods_from(text: &str) -> Vec<PaymentMethod> {
    text.split(',').filter_map(PaymentMethod::parse).collect()
}

fn methods_text(methods: &[PaymentMethod]) -> String {
    methods
        .iter()
        .map(|m| m.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

fn from_row(row: &AnyRow) -> AppResult<StoredPage> {
    let page = PayPage {
        id: row.get("id"),
        mode: stored(&row.get::<String, _>("mode"), "mode")?,
        title: row.get("title"),
        description: row.get("description"),
        amount_mode: stored(&row.get::<String, _>("amount_mode"), "amount mode")?,
        amount_cents: opt_int(row, "amount_cents"),
        min_cents: opt_int(row, "min_cents"),
        max_cents: opt_int(row, "max_cents"),
        kind: stored(&row.get::<String, _>("kind"), "payment kind")?,
        interval: opt_text(row, "page_interval")
            .map(|i| stored(&i, "page interval"))
            .transpose()?,
        methods: methods_from(&row.get::<String, _>("methods")),
        expires_on: opt_text(row, "expires_on"),
        max_uses: opt_int(row, "max_uses").map(|n| n.clamp(0, i64::from(u32::MAX)) as u32),
        uses: row.get::<i64, _>("uses").max(0) as u32,
        reference: row.get("reference"),
        success_url: opt_text(row, "success_url"),
        colour: row.get("colour"),
        logo_version: opt_int(row, "logo_version"),
        active: flag(row, "active"),
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
        version: row.get::<i64, _>("version").max(0) as u64,
    };
    Ok(StoredPage {
        merchant_id: row.get("merchant_id"),
        page,
    })
}

pub async fn insert_page(tx: &mut Tx, merchant_id: &str, page: &PayPage) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO pay_pages (id, merchant_id, mode, title, description, amount_mode, amount_cents, min_cents, \
         max_cents, kind, page_interval, methods, expires_on, max_uses, uses, reference, success_url, colour, \
         logo_version, active, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, \
         $13, $14, $15, $16, $17, $18, $19, $20, $21, $21)",
    )
    .bind(&page.id)
    .bind(merchant_id)
    .bind(page.mode.as_str())
    .bind(&page.title)
    .bind(&page.description)
    .bind(wire_name(&page.amount_mode))
    .bind(page.amount_cents)
    .bind(page.min_cents)
    .bind(page.max_cents)
    .bind(wire_name(&page.kind))
    .bind(page.interval.map(|i| wire_name(&i)))
    .bind(methods_text(&page.methods))
    .bind(page.expires_on.clone())
    .bind(page.max_uses.map(i64::from))
    .bind(i64::from(page.uses))
    .bind(&page.reference)
    .bind(page.success_url.clone())
    .bind(&page.colour)
    .bind(page.logo_version)
    .bind(i64::from(page.active))
    .bind(page.created_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes what the merchant edits and the page's switches; `uses` is only
/// moved by [`count_use`].
pub async fn update_page(tx: &mut Tx, merchant_id: &str, page: &PayPage) -> AppResult<()> {
    sqlx::query(
        "UPDATE pay_pages SET title = $4, description = $5, amount_mode = $6, amount_cents = $7, min_cents = $8, \
         max_cents = $9, kind = $10, page_interval = $11, methods = $12, expires_on = $13, max_uses = $14, \
         reference = $15, success_url = $16, colour = $17, active = $18, updated_at = $19 \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(merchant_id)
    .bind(page.mode.as_str())
    .bind(&page.id)
    .bind(&page.title)
    .bind(&page.description)
    .bind(wire_name(&page.amount_mode))
    .bind(page.amount_cents)
    .bind(page.min_cents)
    .bind(page.max_cents)
    .bind(wire_name(&page.kind))
    .bind(page.interval.map(|i| wire_name(&i)))
    .bind(methods_text(&page.methods))
    .bind(page.expires_on.clone())
    .bind(page.max_uses.map(i64::from))
    .bind(&page.reference)
    .bind(page.success_url.clone())
    .bind(&page.colour)
    .bind(i64::from(page.active))
    .bind(page.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// One more successful checkout.
pub async fn count_use(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    id: &str,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE pay_pages SET uses = uses + 1, updated_at = $4 WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn set_logo(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    id: &str,
    logo: Option<(&[u8], &str)>,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE pay_pages SET logo = $4, logo_type = $5, logo_version = $6, updated_at = $7 \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(id)
    .bind(logo.map(|(bytes, _)| bytes.to_vec()))
    .bind(logo.map(|(_, content_type)| content_type.to_string()))
    .bind(logo.map(|_| now))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn find_page<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<PayPage>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let mut sql = Sql::in_stream(SELECT, "p", merchant_id, mode);
    sql.and("p.id = {}", Bind::Text(id.into()));
    let row = sql.query().fetch_optional(executor).await?;
    Ok(row.as_ref().map(from_row).transpose()?.map(|s| s.page))
}

/// The public pay page: a page by its id alone, with its merchant.
/// What the public pay page needs in one statement: the page, its merchant's
/// name and the offset of that stream's business clock (0 when it has none).
#[derive(Clone)]
pub struct PublicRow {
    pub stored: StoredPage,
    pub merchant_name: String,
    pub offset_days: i64,
}

/// One query, not three: every GET of `/pay/{id}` runs it, and on SQLite each
/// statement is a round trip to sqlx's connection thread.
pub async fn find_public<'e, E>(executor: E, id: &str) -> AppResult<Option<PublicRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(concat!(
        page_columns!(),
        ", m.name AS merchant_name, COALESCE(c.offset_days, 0) AS offset_days \
         FROM pay_pages p JOIN merchants m ON m.id = p.merchant_id \
         LEFT JOIN business_clocks c ON c.merchant_id = p.merchant_id AND c.mode = p.mode \
         WHERE p.id = $1"
    ))
    .bind(id)
    .fetch_optional(executor)
    .await?;
    row.as_ref()
        .map(|row| {
            Ok(PublicRow {
                stored: from_row(row)?,
                merchant_name: row.get("merchant_name"),
                offset_days: row.get("offset_days"),
            })
        })
        .transpose()
}

/// The logo's bytes and content type.
pub async fn find_logo(db: &Db, id: &str) -> AppResult<Option<(Vec<u8>, String)>> {
    let row = sqlx::query(
        "SELECT logo, logo_type FROM pay_pages WHERE id = $1 AND logo IS NOT NULL AND active = $2",
    )
    .bind(id)
    .bind(1_i64)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| (r.get("logo"), r.get("logo_type"))))
}

pub async fn list_pages(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    page: &PageRequest,
) -> AppResult<Vec<PayPage>> {
    let mut sql = Sql::in_stream(SELECT, "p", merchant_id, mode);
    push_page(&mut sql, "p", page);
    let rows = sql.query().fetch_all(&db.pool).await?;
    rows.iter().map(|r| from_row(r).map(|s| s.page)).collect()
}
