//! Payments: the schedules that raise debits. Every function takes the
//! merchant id and mode.

use protocol::{Mode, Payment, PaymentFilter, PaymentKind};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::sql::{Bind, PageRequest, Sql, opt_int, opt_text, push_page, stored, wire_name};
use super::{Db, Tx};
use crate::error::AppResult;

const SELECT: &str = "SELECT p.*, c.name AS customer_name FROM payments p \
     JOIN customers c ON c.id = p.customer_id JOIN mandates m ON m.id = p.mandate_id \
     JOIN bank_accounts b ON b.id = m.bank_account_id";

/// A payment with the scheduler's own bookkeeping beside the wire view.
#[derive(Clone, Debug)]
pub struct PaymentRecord {
    pub view: Payment,
    pub next_nominal_date: Option<String>,
}

fn from_row(row: &AnyRow) -> AppResult<PaymentRecord> {
    let view = Payment {
        id: row.get("id"),
        mode: stored(&row.get::<String, _>("mode"), "mode")?,
        kind: stored(&row.get::<String, _>("kind"), "payment kind")?,
        customer_id: row.get("customer_id"),
        customer_name: row.get("customer_name"),
        mandate_id: row.get("mandate_id"),
        method: stored(&row.get::<String, _>("method"), "method")?,
        status: stored(&row.get::<String, _>("status"), "payment status")?,
        stop_reason: opt_text(row, "stop_reason"),
        amount_cents: row.get("amount_cents"),
        first_collection_cents: opt_int(row, "first_collection_cents"),
        date_to_process: opt_text(row, "date_to_process"),
        transaction_reference: row.get("transaction_reference"),
        start_date: opt_text(row, "start_date"),
        end_date: opt_text(row, "end_date"),
        interval: opt_text(row, "collection_interval")
            .map(|i| stored(&i, "interval"))
            .transpose()?,
        day_to_process: opt_int(row, "day_to_process").map(|d| d.clamp(0, 255) as u8),
        next_action_date: opt_text(row, "next_action_date"),
        representation_date: opt_text(row, "rerun_date"),
        representation_cents: opt_int(row, "rerun_cents"),
        representation_moved_from: opt_text(row, "rerun_moved_from"),
        collected_cents: row.get("collected_cents"),
        attempts: row.get::<i64, _>("attempts").max(0) as u32,
        consecutive_unpaids: row.get::<i64, _>("consecutive_unpaids").max(0) as u32,
        import_id: opt_text(row, "import_id"),
        import_row: opt_int(row, "import_row").map(|r| r.clamp(0, i64::from(u32::MAX)) as u32),
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
    };
    Ok(PaymentRecord {
        view,
        next_nominal_date: opt_text(row, "next_nominal_date"),
    })
}

pub async fn insert_payment(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    record: &PaymentRecord,
) -> AppResult<()> {
    let p = &record.view;
    sqlx::query(
        "INSERT INTO payments (id, merchant_id, mode, kind, customer_id, mandate_id, method, status, stop_reason, \
         amount_cents, first_collection_cents, date_to_process, transaction_reference, start_date, end_date, \
         collection_interval, day_to_process, next_nominal_date, next_action_date, rerun_cents, collected_cents, \
         attempts, consecutive_unpaids, created_at, updated_at, rerun_date, rerun_moved_from) VALUES ($1, $2, $3, \
         $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $24, \
         $25, $26)",
    )
    .bind(&p.id)
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(wire_name(&p.kind))
    .bind(&p.customer_id)
    .bind(&p.mandate_id)
    .bind(p.method.as_str())
    .bind(wire_name(&p.status))
    .bind(p.stop_reason.clone())
    .bind(p.amount_cents)
    .bind(p.first_collection_cents)
    .bind(p.date_to_process.clone())
    .bind(&p.transaction_reference)
    .bind(p.start_date.clone())
    .bind(p.end_date.clone())
    .bind(p.interval.map(|i| wire_name(&i)))
    .bind(p.day_to_process.map(i64::from))
    .bind(record.next_nominal_date.clone())
    .bind(p.next_action_date.clone())
    .bind(p.representation_cents)
    .bind(p.collected_cents)
    .bind(i64::from(p.attempts))
    .bind(i64::from(p.consecutive_unpaids))
    .bind(p.created_at)
    .bind(p.representation_date.clone())
    .bind(p.representation_moved_from.clone())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes every field the lifecycle and the scheduler move.
pub async fn update_payment(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    record: &PaymentRecord,
    now: i64,
) -> AppResult<()> {
    let p = &record.view;
    sqlx::query(
        "UPDATE payments SET status = $4, stop_reason = $5, next_nominal_date = $6, next_action_date = $7, \
         rerun_cents = $8, collected_cents = $9, attempts = $10, consecutive_unpaids = $11, updated_at = $12, \
         rerun_date = $13, rerun_moved_from = $14 WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(&p.id)
    .bind(wire_name(&p.status))
    .bind(p.stop_reason.clone())
    .bind(record.next_nominal_date.clone())
    .bind(p.next_action_date.clone())
    .bind(p.representation_cents)
    .bind(p.collected_cents)
    .bind(i64::from(p.attempts))
    .bind(i64::from(p.consecutive_unpaids))
    .bind(now)
    .bind(p.representation_date.clone())
    .bind(p.representation_moved_from.clone())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn find_payment<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<PaymentRecord>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let mut sql = Sql::in_stream(SELECT, "p", merchant_id, mode);
    sql.and("p.id = {}", Bind::Text(id.into()));
    let row = sql.query().fetch_optional(executor).await?;
    row.as_ref().map(from_row).transpose()
}

async fn fetch_records(tx: &mut Tx, sql: &Sql) -> AppResult<Vec<PaymentRecord>> {
    let rows = sql.query().fetch_all(&mut **tx).await?;
    rows.iter().map(from_row).collect()
}

/// Payments of a mandate that have not ended.
pub async fn open_payments_of_mandate(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    mandate_id: &str,
) -> AppResult<Vec<PaymentRecord>> {
    let mut sql = Sql::in_stream(SELECT, "p", merchant_id, mode);
    sql.and("p.mandate_id = {}", Bind::Text(mandate_id.into()))
        .push(" AND p.status IN ('pending', 'running', 'paused') ORDER BY p.id");
    fetch_records(tx, &sql).await
}

/// The two kinds of debit a running payment keeps scheduled: its regular
/// next debit, and an unpaid 02 to present again. The reads of what is due
/// and of what comes next share them, so the two kinds cannot drift apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduled {
    Regular,
    Representation,
}

impl Scheduled {
    /// The column holding the debit's date.
    fn date_column(self) -> &'static str {
        match self {
            Scheduled::Regular => "p.next_action_date",
            Scheduled::Representation => "p.rerun_date",
        }
    }

    /// When a payment has a debit of this kind scheduled.
    fn scheduled(self) -> &'static str {
        match self {
            Scheduled::Regular => "p.next_action_date IS NOT NULL",
            Scheduled::Representation => "p.rerun_date IS NOT NULL AND p.rerun_cents IS NOT NULL",
        }
    }
}

/// Running payments with a debit of `kind` due on or before `day`.
pub async fn due(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    kind: Scheduled,
    day: &str,
) -> AppResult<Vec<PaymentRecord>> {
    let mut sql = Sql::in_stream(SELECT, "p", merchant_id, mode);
    sql.and(
        &format!("{} <= {{}}", kind.date_column()),
        Bind::Text(day.into()),
    )
    .push(&format!(
        " AND {} AND p.status = 'running' ORDER BY p.id",
        kind.scheduled()
    ));
    fetch_records(tx, &sql).await
}

/// Running payments with no debit left to raise: candidates to complete.
pub async fn exhausted_payments(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
) -> AppResult<Vec<PaymentRecord>> {
    let mut sql = Sql::in_stream(SELECT, "p", merchant_id, mode);
    sql.push(
        " AND p.status = 'running' AND p.next_action_date IS NULL AND p.rerun_cents IS NULL ORDER BY p.id",
    );
    fetch_records(tx, &sql).await
}

/// The next debits of `kind` of running payments, soonest first.
pub async fn upcoming(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    kind: Scheduled,
    limit: u32,
) -> AppResult<Vec<Payment>> {
    let mut sql = Sql::in_stream(SELECT, "p", merchant_id, mode);
    sql.push(&format!(
        " AND p.status = 'running' AND {}",
        kind.scheduled()
    ));
    let limit = sql.int_arg(i64::from(limit));
    sql.push(&format!(
        " ORDER BY {}, p.id LIMIT {limit}",
        kind.date_column()
    ));
    let rows = sql.query().fetch_all(&db.pool).await?;
    rows.iter().map(|r| from_row(r).map(|p| p.view)).collect()
}

/// How many debits running payments have scheduled: each one's next
/// debit, and each unpaid 02 waiting to be presented again.
pub async fn count_upcoming(db: &Db, merchant_id: &str, mode: Mode) -> AppResult<u32> {
    let mut sql = Sql::in_stream(
        "SELECT COALESCE(SUM(CASE WHEN p.next_action_date IS NOT NULL THEN 1 ELSE 0 END \
         + CASE WHEN p.rerun_date IS NOT NULL AND p.rerun_cents IS NOT NULL THEN 1 ELSE 0 END), 0) \
         AS n FROM payments p",
        "p",
        merchant_id,
        mode,
    );
    sql.push(" AND p.status = 'running'");
    let row = sql.query().fetch_one(&db.pool).await?;
    let count: i64 = sqlx::Row::try_get(&row, "n")?;
    Ok(u32::try_from(count).unwrap_or(u32::MAX))
}

pub async fn list_payments(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    kind: PaymentKind,
    filter: &PaymentFilter,
    page: &PageRequest,
) -> AppResult<Vec<Payment>> {
    let mut sql = Sql::in_stream(SELECT, "p", merchant_id, mode);
    sql.and("p.kind = {}", Bind::Text(wire_name(&kind)));
    sql.and_some(
        "p.status = {}",
        filter.status.map(|s| Bind::Text(wire_name(&s))),
    );
    sql.and_some(
        "p.method = {}",
        filter.method.map(|m| Bind::Text(m.as_str().into())),
    );
    let from = filter.from.as_deref().and_then(day_start_ms);
    sql.and_some("p.created_at >= {}", from.map(Bind::Int));
    let to = filter.to.as_deref().and_then(day_start_ms);
    sql.and_some("p.created_at < {}", to.map(|to| Bind::Int(to + DAY_MS)));
    sql.and_some("p.amount_cents >= {}", filter.min_cents.map(Bind::Int));
    sql.and_some("p.amount_cents <= {}", filter.max_cents.map(Bind::Int));
    // The payments of one import (its page's list): scoped, like every
    // condition here, by the merchant and mode above.
    sql.and_some("p.import_id = {}", filter.import_id.clone().map(Bind::Text));
    sql.and_some(
        "p.customer_id = {}",
        filter.customer_id.clone().map(Bind::Text),
    );
    sql.and_search(
        filter.search.as_deref(),
        &[
            "c.search_text",
            "LOWER(p.transaction_reference)",
            "LOWER(m.contract_reference)",
        ],
        "b.account_number",
    );
    push_page(&mut sql, "p", page);
    let rows = sql.query().fetch_all(&db.pool).await?;
    rows.iter().map(|r| from_row(r).map(|p| p.view)).collect()
}

const DAY_MS: i64 = 86_400_000;

/// Midnight UTC of a `YYYY-MM-DD` date; filters with a bad date are ignored
/// by the domain before they get here.
fn day_start_ms(value: &str) -> Option<i64> {
    let date = crate::domain::calendar::parse_iso_date(value)?;
    Some(date.midnight().assume_utc().unix_timestamp() * 1000)
}
