//! Payouts, their lines and settings, and the simulated bank's record of
//! payout instructions. Every query takes the merchant id and the mode.

use protocol::{Mode, PayoutLine};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::Tx;
use crate::error::AppResult;

/// The kinds of ledger entry payouts write: they are never settled by a
/// payout themselves.
pub const PAYOUT_KINDS: [&str; 3] = ["payout", "payout_fee", "payout_return"];

#[derive(Clone, Debug, Default)]
pub struct SettingsRow {
    pub bank: Option<String>,
    pub branch_code: Option<String>,
    pub account_type: Option<String>,
    pub holder_name: Option<String>,
    pub account_number: Option<String>,
    pub verified_at: Option<i64>,
    pub held_until: Option<i64>,
    pub schedule_interval: String,
    pub schedule_weekday: i64,
    pub schedule_day: i64,
    pub minimum_cents: i64,
}

pub async fn read_settings<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
) -> AppResult<Option<SettingsRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT bank, branch_code, account_type, holder_name, account_number, verified_at, held_until, \
         schedule_interval, schedule_weekday, schedule_day, minimum_cents \
         FROM payout_settings WHERE merchant_id = $1 AND mode = $2",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .fetch_optional(executor)
    .await?;
    Ok(row.map(|r| SettingsRow {
        bank: r.get("bank"),
        branch_code: r.get("branch_code"),
        account_type: r.get("account_type"),
        holder_name: r.get("holder_name"),
        account_number: r.get("account_number"),
        verified_at: r.get("verified_at"),
        held_until: r.get("held_until"),
        schedule_interval: r.get("schedule_interval"),
        schedule_weekday: r.get("schedule_weekday"),
        schedule_day: r.get("schedule_day"),
        minimum_cents: r.get("minimum_cents"),
    }))
}

pub async fn write_settings(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    row: &SettingsRow,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO payout_settings (merchant_id, mode, bank, branch_code, account_type, holder_name, \
         account_number, verified_at, held_until, schedule_interval, schedule_weekday, schedule_day, \
         minimum_cents, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
         ON CONFLICT (merchant_id, mode) DO UPDATE SET bank = $3, branch_code = $4, account_type = $5, \
         holder_name = $6, account_number = $7, verified_at = $8, held_until = $9, \
         schedule_interval = $10, schedule_weekday = $11, schedule_day = $12, minimum_cents = $13, \
         updated_at = $14",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(row.bank.clone())
    .bind(row.branch_code.clone())
    .bind(row.account_type.clone())
    .bind(row.holder_name.clone())
    .bind(row.account_number.clone())
    .bind(row.verified_at)
    .bind(row.held_until)
    .bind(&row.schedule_interval)
    .bind(row.schedule_weekday)
    .bind(row.schedule_day)
    .bind(row.minimum_cents)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

#[derive(Clone, Debug)]
pub struct PayoutRow {
    pub id: String,
    pub merchant_id: String,
    pub mode: Mode,
    pub kind: String,
    pub status: String,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub net_cents: i64,
    pub automatic: bool,
    pub holder_name: String,
    pub account_number: String,
    pub customer_id: Option<String>,
    pub bank_account_id: Option<String>,
    pub transaction_id: Option<String>,
    pub reason: Option<String>,
    pub failure: Option<String>,
    pub requested_on: String,
    pub submitted_on: Option<String>,
    /// JSON of the status steps.
    pub history: String,
    pub schedule_day: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "id, merchant_id, mode, kind, status, amount_cents, fee_cents, net_cents, automatic, \
    holder_name, account_number, customer_id, bank_account_id, transaction_id, reason, failure, \
    requested_on, submitted_on, history, schedule_day, created_at, updated_at";

fn payout_row(r: &AnyRow, mode: Mode) -> PayoutRow {
    PayoutRow {
        id: r.get("id"),
        merchant_id: r.get("merchant_id"),
        mode,
        kind: r.get("kind"),
        status: r.get("status"),
        amount_cents: r.get("amount_cents"),
        fee_cents: r.get("fee_cents"),
        net_cents: r.get("net_cents"),
        automatic: r.get::<i64, _>("automatic") != 0,
        holder_name: r.get("holder_name"),
        account_number: r.get("account_number"),
        customer_id: r.get("customer_id"),
        bank_account_id: r.get("bank_account_id"),
        transaction_id: r.get("transaction_id"),
        reason: r.get("reason"),
        failure: r.get("failure"),
        requested_on: r.get("requested_on"),
        submitted_on: r.get("submitted_on"),
        history: r.get("history"),
        schedule_day: r.get("schedule_day"),
        created_at: r.get("created_at"),
        updated_at: r.get("updated_at"),
    }
}

pub async fn insert_payout(tx: &mut Tx, row: &PayoutRow) -> AppResult<()> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO payouts ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, \
         $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)"
    )))
    .bind(&row.id)
    .bind(&row.merchant_id)
    .bind(row.mode.as_str())
    .bind(&row.kind)
    .bind(&row.status)
    .bind(row.amount_cents)
    .bind(row.fee_cents)
    .bind(row.net_cents)
    .bind(i64::from(row.automatic))
    .bind(&row.holder_name)
    .bind(&row.account_number)
    .bind(row.customer_id.clone())
    .bind(row.bank_account_id.clone())
    .bind(row.transaction_id.clone())
    .bind(row.reason.clone())
    .bind(row.failure.clone())
    .bind(&row.requested_on)
    .bind(row.submitted_on.clone())
    .bind(&row.history)
    .bind(row.schedule_day.clone())
    .bind(row.created_at)
    .bind(row.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Moves a payout on from status `from`: its status, failure, submission
/// day and history. False when the payout is no longer in `from` (another
/// writer moved it first): nothing is written then.
pub async fn update_payout(tx: &mut Tx, row: &PayoutRow, from: &str) -> AppResult<bool> {
    let moved = sqlx::query(
        "UPDATE payouts SET status = $4, failure = $5, submitted_on = $6, history = $7, updated_at = $8 \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3 AND status = $9",
    )
    .bind(&row.merchant_id)
    .bind(row.mode.as_str())
    .bind(&row.id)
    .bind(&row.status)
    .bind(row.failure.clone())
    .bind(row.submitted_on.clone())
    .bind(&row.history)
    .bind(row.updated_at)
    .bind(from)
    .execute(&mut **tx)
    .await?;
    Ok(moved.rows_affected() == 1)
}

pub async fn find_payout<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<PayoutRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM payouts WHERE merchant_id = $1 AND mode = $2 AND id = $3"
    )))
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(id)
    .fetch_optional(executor)
    .await?;
    Ok(row.map(|r| payout_row(&r, mode)))
}

/// Newest first, `limit` of them after the payout `after` (its id).
pub async fn list_payouts<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    after: Option<&str>,
    limit: i64,
) -> AppResult<Vec<PayoutRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM payouts p WHERE merchant_id = $1 AND mode = $2 AND ($3 = '' OR \
         (created_at, id) < (SELECT created_at, id FROM payouts WHERE merchant_id = $1 AND mode = $2 AND id = $3)) \
         ORDER BY created_at DESC, id DESC LIMIT $4"
    )))
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(after.unwrap_or_default())
    .bind(limit)
    .fetch_all(executor)
    .await?;
    Ok(rows.iter().map(|r| payout_row(r, mode)).collect())
}

/// A stream's payouts in one status, oldest first.
pub async fn payouts_in_status(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    status: &str,
) -> AppResult<Vec<PayoutRow>> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM payouts WHERE merchant_id = $1 AND mode = $2 AND status = $3 \
         ORDER BY created_at, id"
    )))
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(status)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.iter().map(|r| payout_row(r, mode)).collect())
}

pub async fn has_schedule_payout(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    day: &str,
) -> AppResult<bool> {
    let row = sqlx::query(
        "SELECT id FROM payouts WHERE merchant_id = $1 AND mode = $2 AND schedule_day = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(day)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.is_some())
}

/// Records the bank's instruction for a payout: at most one, ever.
pub async fn record_submission(
    tx: &mut Tx,
    payout: &PayoutRow,
    day: &str,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO payout_submissions (payout_id, merchant_id, mode, submitted_on, created_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (payout_id) DO NOTHING",
    )
    .bind(&payout.id)
    .bind(&payout.merchant_id)
    .bind(payout.mode.as_str())
    .bind(day)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A ledger entry of a payout (`payout`, `payout_fee`, `payout_return`).
/// Payouts travel as EFT credits, so their method column says `payout`.
pub async fn insert_payout_entry(
    tx: &mut Tx,
    payout: &PayoutRow,
    kind: &str,
    amount_cents: i64,
    day: &str,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO ledger_entries (id, merchant_id, mode, kind, amount_cents, method, transaction_id, \
         order_id, source_id, entry_date, available_on, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $9, $9, $10) \
         ON CONFLICT (merchant_id, mode, source_id, kind) DO NOTHING",
    )
    .bind(crate::ids::new_id("led"))
    .bind(&payout.merchant_id)
    .bind(payout.mode.as_str())
    .bind(kind)
    .bind(amount_cents)
    .bind(super::ledger::PAYOUT_METHOD)
    .bind(payout.transaction_id.clone())
    .bind(&payout.id)
    .bind(day)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The available entries not yet settled by a payout that still stands,
/// with what is left of each (signed), oldest first.
pub async fn open_entries(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    today: &str,
) -> AppResult<Vec<(String, i64)>> {
    // CAST: PostgreSQL sums BIGINT into NUMERIC, which `Any` cannot carry.
    let rows = sqlx::query(
        "SELECT e.id, e.amount_cents - CAST(COALESCE((SELECT SUM(l.amount_cents) FROM payout_lines l \
         JOIN payouts p ON p.id = l.payout_id WHERE l.merchant_id = $1 AND l.mode = $2 \
         AND l.entry_id = e.id AND p.status <> 'failed'), 0) AS BIGINT) AS open \
         FROM ledger_entries e WHERE e.merchant_id = $1 AND e.mode = $2 AND e.available_on <= $3 \
         AND e.kind NOT IN ('payout', 'payout_fee', 'payout_return') \
         ORDER BY e.available_on, e.created_at, e.id",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(today)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .iter()
        .map(|r| (r.get::<String, _>("id"), r.get::<i64, _>("open")))
        .filter(|(_, open)| *open != 0)
        .collect())
}

pub async fn insert_line(
    tx: &mut Tx,
    payout: &PayoutRow,
    entry_id: &str,
    amount_cents: i64,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO payout_lines (payout_id, entry_id, merchant_id, mode, amount_cents) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&payout.id)
    .bind(entry_id)
    .bind(&payout.merchant_id)
    .bind(payout.mode.as_str())
    .bind(amount_cents)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn lines_of<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    payout_id: &str,
) -> AppResult<Vec<PayoutLine>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = sqlx::query(
        "SELECT l.entry_id, l.amount_cents, e.kind, e.entry_date, e.transaction_id, e.order_id \
         FROM payout_lines l JOIN ledger_entries e ON e.id = l.entry_id \
         WHERE l.merchant_id = $1 AND l.mode = $2 AND l.payout_id = $3 \
         ORDER BY e.available_on, e.created_at, e.id",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(payout_id)
    .fetch_all(executor)
    .await?;
    Ok(rows
        .iter()
        .map(|r| PayoutLine {
            entry_id: r.get("entry_id"),
            kind: r.get("kind"),
            entry_date: r.get("entry_date"),
            transaction_id: r.get("transaction_id"),
            order_id: r.get("order_id"),
            amount_cents: r.get("amount_cents"),
        })
        .collect())
}
