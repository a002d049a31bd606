//! Cards on file: the acquirer's token, brand, last four and expiry, never
//! the number or CVV. Every function takes the merchant id and mode.

use protocol::{Card, CardSchedule, Language, Mode};
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
    pub payer: CardPayer,
}

/// What the schedule's mails need and what the merchant does not see.
#[derive(Clone, Debug, Default)]
pub struct CardPayer {
    pub email: Option<String>,
    pub language: Language,
    /// Charges the scheduler has made with this card.
    pub scheduled_charges: u32,
    pub first_reminder_sent: bool,
    pub expiry_reminder_sent: bool,
}

fn schedule_of(row: &AnyRow) -> AppResult<Option<CardSchedule>> {
    let Some(status) = opt_text(row, "schedule_status") else {
        return Ok(None);
    };
    let interval: String = opt_text(row, "schedule_interval").unwrap_or_default();
    Ok(Some(CardSchedule {
        amount_cents: row
            .try_get::<Option<i64>, _>("schedule_amount_cents")
            .ok()
            .flatten()
            .unwrap_or(0),
        interval: stored(&interval, "schedule interval")?,
        reference: opt_text(row, "schedule_reference").unwrap_or_default(),
        status: stored(&status, "schedule status")?,
        next_charge_date: opt_text(row, "next_charge_date").unwrap_or_default(),
        retry_date: opt_text(row, "retry_date"),
        failed_tries: row.get::<i64, _>("failed_tries").clamp(0, 1000) as u32,
        pause_reason: opt_text(row, "pause_reason")
            .map(|r| stored(&r, "pause reason"))
            .transpose()?,
    }))
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
        schedule: schedule_of(row)?,
        created_at: row.get("created_at"),
    };
    let language: String = row.get("payer_language");
    Ok(StoredCard {
        card,
        token: row.get("token"),
        payer: CardPayer {
            email: opt_text(row, "payer_email"),
            language: Language::parse(&language).unwrap_or_default(),
            scheduled_charges: row.get::<i64, _>("scheduled_charges").clamp(0, 100_000) as u32,
            first_reminder_sent: row.get::<i64, _>("first_reminder_sent") != 0,
            expiry_reminder_sent: row.get::<i64, _>("expiry_reminder_sent") != 0,
        },
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
    save_card(tx, merchant_id, stored).await
}

/// Writes what can change of a card: the card itself (the payer may
/// replace it), its schedule and the schedule's bookkeeping.
pub async fn save_card(tx: &mut Tx, merchant_id: &str, stored: &StoredCard) -> AppResult<()> {
    let card = &stored.card;
    let schedule = card.schedule.as_ref();
    let payer = &stored.payer;
    sqlx::query(
        "UPDATE cards SET token = $4, brand = $5, last_four = $6, expiry_month = $7, expiry_year = $8, \
         schedule_status = $9, schedule_amount_cents = $10, schedule_interval = $11, schedule_reference = $12, \
         next_charge_date = $13, retry_date = $14, failed_tries = $15, pause_reason = $16, payer_email = $17, \
         payer_language = $18, scheduled_charges = $19, first_reminder_sent = $20, expiry_reminder_sent = $21 \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(merchant_id)
    .bind(card.mode.as_str())
    .bind(&card.id)
    .bind(&stored.token)
    .bind(wire_name(&card.brand))
    .bind(&card.last_four)
    .bind(i64::from(card.expiry_month))
    .bind(i64::from(card.expiry_year))
    .bind(schedule.map(|s| wire_name(&s.status)))
    .bind(schedule.map(|s| s.amount_cents))
    .bind(schedule.map(|s| wire_name(&s.interval)))
    .bind(schedule.map(|s| s.reference.clone()))
    .bind(schedule.map(|s| s.next_charge_date.clone()))
    .bind(schedule.and_then(|s| s.retry_date.clone()))
    .bind(schedule.map_or(0, |s| i64::from(s.failed_tries)))
    .bind(schedule.and_then(|s| s.pause_reason.map(|r| wire_name(&r))))
    .bind(payer.email.clone())
    .bind(payer.language.as_str())
    .bind(i64::from(payer.scheduled_charges))
    .bind(i64::from(payer.first_reminder_sent))
    .bind(i64::from(payer.expiry_reminder_sent))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Cards whose schedule is active: the scheduler's day looks at each.
pub async fn scheduled_cards(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
) -> AppResult<Vec<StoredCard>> {
    let mut sql = Sql::in_stream(SELECT, "k", merchant_id, mode);
    sql.and("k.schedule_status = {}", Bind::Text("active".into()));
    sql.push(" ORDER BY k.id");
    let rows = sql.query().fetch_all(&mut **tx).await?;
    rows.iter().map(from_row).collect()
}

/// A payer's link to replace a card: only the token's hash is stored.
pub async fn insert_update_link(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    card_id: &str,
    token_hash: &str,
    expires_at: i64,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO card_update_links (token_hash, merchant_id, mode, card_id, expires_at, used_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, NULL, $6)",
    )
    .bind(token_hash)
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(card_id)
    .bind(expires_at)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// An unused, unexpired link's stream and card. The token is the only key
/// a payer has; everything read after this is scoped by what it names.
pub async fn find_update_link<'e, E>(
    executor: E,
    token_hash: &str,
    now: i64,
) -> AppResult<Option<(String, Mode, String)>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT merchant_id, mode, card_id FROM card_update_links \
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(executor)
    .await?;
    Ok(row.and_then(|r| {
        let mode: String = r.get("mode");
        Mode::parse(&mode).map(|mode| (r.get("merchant_id"), mode, r.get("card_id")))
    }))
}

/// Uses a link up: false when it was already used (a second submit).
pub async fn use_update_link(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    token_hash: &str,
    now: i64,
) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE card_update_links SET used_at = $4 \
         WHERE merchant_id = $1 AND mode = $2 AND token_hash = $3 AND used_at IS NULL AND expires_at > $4",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(token_hash)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn delete_card(tx: &mut Tx, merchant_id: &str, mode: Mode, id: &str) -> AppResult<()> {
    // A forgotten card's update links die with it.
    sqlx::query(
        "DELETE FROM card_update_links WHERE merchant_id = $1 AND mode = $2 AND card_id = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(id)
    .execute(&mut **tx)
    .await?;
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
