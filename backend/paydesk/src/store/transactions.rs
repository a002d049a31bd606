//! Transactions: one debit attempt each. Every function takes the merchant
//! id and mode.

use protocol::{Mode, Transaction, TransactionFilter, TransactionStep, UnpaidFollowUp};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::mandates::last_digits;
use super::sql::{Bind, PageRequest, Sql, opt_text, push_page, stored, wire_name};
use super::{Db, Tx};
use crate::error::{AppError, AppResult};

// Debit orders have a payment, mandate and bank account; a pay-page or
// card-on-file charge has an order and carries its payer, bank or card itself.
const SELECT: &str = "SELECT t.*, COALESCE(c.name, t.payer_name, '') AS customer_name, \
     COALESCE(p.kind, t.payment_kind) AS resolved_kind, COALESCE(b.bank, t.bank) AS resolved_bank, \
     COALESCE(b.account_number, t.last_digits, '') AS account_number FROM transactions t \
     LEFT JOIN customers c ON c.id = t.customer_id LEFT JOIN payments p ON p.id = t.payment_id \
     LEFT JOIN mandates m ON m.id = t.mandate_id LEFT JOIN bank_accounts b ON b.id = m.bank_account_id";

/// A transaction with the bank's script beside the wire view.
#[derive(Clone, Debug)]
pub struct TransactionRecord {
    pub view: Transaction,
    /// The bank's reports still to come, as `day:event` pairs.
    pub script: String,
    pub script_step: u32,
    pub settled_on: Option<String>,
}

fn from_row(row: &AnyRow) -> AppResult<TransactionRecord> {
    let history: Vec<TransactionStep> = serde_json::from_str(&row.get::<String, _>("history"))
        .map_err(|e| AppError::Internal(format!("transaction history: {e}")))?;
    let view = Transaction {
        id: row.get("id"),
        mode: stored(&row.get::<String, _>("mode"), "mode")?,
        payment_id: opt_text(row, "payment_id"),
        payment_kind: stored(&row.get::<String, _>("resolved_kind"), "payment kind")?,
        mandate_id: opt_text(row, "mandate_id"),
        order_id: opt_text(row, "order_id"),
        customer_id: opt_text(row, "customer_id"),
        customer_name: row.get("customer_name"),
        method: stored(&row.get::<String, _>("method"), "method")?,
        bank: opt_text(row, "resolved_bank")
            .map(|bank| stored(&bank, "bank"))
            .transpose()?,
        card_brand: opt_text(row, "card_brand")
            .map(|brand| stored(&brand, "card brand"))
            .transpose()?,
        account_last_digits: last_digits(&row.get::<String, _>("account_number")),
        failure: opt_text(row, "failure")
            .map(|failure| stored(&failure, "failure"))
            .transpose()?,
        reference: row.get("reference"),
        amount_cents: row.get("amount_cents"),
        action_date: row.get("action_date"),
        status: stored(&row.get::<String, _>("status"), "transaction status")?,
        unpaid_code: opt_text(row, "unpaid_code"),
        attempt: row.get::<i64, _>("attempt").max(0) as u32,
        history,
        fee_cents: 0,
        net_cents: 0,
        follow_ups: serde_json::from_str(&row.get::<String, _>("follow_ups"))
            .map_err(|e| AppError::Internal(format!("transaction follow-ups: {e}")))?,
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
    };
    let view = crate::domain::ledger::priced(view);
    Ok(TransactionRecord {
        view,
        script: row.get("script"),
        script_step: row.get::<i64, _>("script_step").max(0) as u32,
        settled_on: opt_text(row, "settled_on"),
    })
}

fn history_json(history: &[TransactionStep]) -> AppResult<String> {
    serde_json::to_string(history)
        .map_err(|e| AppError::Internal(format!("transaction history: {e}")))
}

pub async fn insert_transaction(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    record: &TransactionRecord,
) -> AppResult<()> {
    let t = &record.view;
    sqlx::query(
        "INSERT INTO transactions (id, merchant_id, mode, payment_id, mandate_id, customer_id, method, reference, \
         amount_cents, action_date, status, unpaid_code, attempt, script, script_step, history, settled_on, \
         created_at, updated_at, order_id, payment_kind, payer_name, bank, last_digits, card_brand, failure) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18, $19, $20, \
         $21, $22, $23, $24, $25)",
    )
    .bind(&t.id)
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(&t.payment_id)
    .bind(&t.mandate_id)
    .bind(&t.customer_id)
    .bind(t.method.as_str())
    .bind(&t.reference)
    .bind(t.amount_cents)
    .bind(&t.action_date)
    .bind(wire_name(&t.status))
    .bind(t.unpaid_code.clone())
    .bind(i64::from(t.attempt))
    .bind(&record.script)
    .bind(i64::from(record.script_step))
    .bind(history_json(&t.history)?)
    .bind(record.settled_on.clone())
    .bind(t.created_at)
    .bind(t.order_id.clone())
    // A debit order's kind, bank and digits come from its payment and mandate.
    .bind(t.payment_id.is_none().then(|| wire_name(&t.payment_kind)))
    .bind(t.customer_id.is_none().then(|| t.customer_name.clone()))
    .bind(
        t.mandate_id
            .is_none()
            .then(|| t.bank.map(|bank| wire_name(&bank)))
            .flatten(),
    )
    .bind(t.mandate_id.is_none().then(|| t.account_last_digits.clone()))
    .bind(t.card_brand.map(|brand| wire_name(&brand)))
    .bind(t.failure.map(|failure| wire_name(&failure)))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn update_transaction(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    record: &TransactionRecord,
    now: i64,
) -> AppResult<()> {
    let t = &record.view;
    sqlx::query(
        "UPDATE transactions SET status = $4, unpaid_code = $5, script_step = $6, history = $7, settled_on = $8, \
         updated_at = $9, failure = $10, customer_id = $11 WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(&t.id)
    .bind(wire_name(&t.status))
    .bind(t.unpaid_code.clone())
    .bind(i64::from(record.script_step))
    .bind(history_json(&t.history)?)
    .bind(record.settled_on.clone())
    .bind(now)
    .bind(t.failure.map(|failure| wire_name(&failure)))
    // A card kept at 3-D Secure makes its customer only when the bank approves.
    .bind(t.customer_id.clone())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Keeps what the merchant did about an unpaid debit (its follow-ups).
pub async fn set_follow_ups(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    id: &str,
    follow_ups: &[UnpaidFollowUp],
    now: i64,
) -> AppResult<()> {
    let json = serde_json::to_string(follow_ups)
        .map_err(|e| AppError::Internal(format!("transaction follow-ups: {e}")))?;
    sqlx::query(
        "UPDATE transactions SET follow_ups = $4, updated_at = $5 \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(id)
    .bind(json)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The id of a payment's newest unpaid debit: the one its waiting
/// re-presentation presents again.
pub async fn newest_unpaid_of_payment(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    payment_id: &str,
) -> AppResult<Option<String>> {
    let row = sqlx::query(
        "SELECT id FROM transactions WHERE merchant_id = $1 AND mode = $2 AND payment_id = $3 \
         AND status = 'unpaid' ORDER BY action_date DESC, created_at DESC, id DESC LIMIT 1",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(payment_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|row| row.get("id")))
}

pub async fn find_transaction<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<TransactionRecord>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let mut sql = Sql::in_stream(SELECT, "t", merchant_id, mode);
    sql.and("t.id = {}", Bind::Text(id.into()));
    let row = sql.query().fetch_optional(executor).await?;
    row.as_ref().map(from_row).transpose()
}

async fn fetch_records(tx: &mut Tx, sql: &Sql) -> AppResult<Vec<TransactionRecord>> {
    let rows = sql.query().fetch_all(&mut **tx).await?;
    rows.iter().map(from_row).collect()
}

/// Transactions the bank still has reports for.
pub async fn open_transactions(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
) -> AppResult<Vec<TransactionRecord>> {
    let mut sql = Sql::in_stream(SELECT, "t", merchant_id, mode);
    sql.push(
        " AND t.script <> '' AND t.status NOT IN ('cancelled', 'rejected_by_bank', 'unpaid', 'reversed') ORDER BY t.id",
    );
    fetch_records(tx, &sql).await
}

/// Debits of a payment the bank has not settled yet (pending, sent,
/// accepted or in tracking).
pub async fn unsettled_of_payment(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    payment_id: &str,
) -> AppResult<Vec<TransactionRecord>> {
    let mut sql = Sql::in_stream(SELECT, "t", merchant_id, mode);
    sql.and("t.payment_id = {}", Bind::Text(payment_id.into())).push(
        " AND t.status IN ('pending', 'sent_to_bank', 'accepted_by_bank', 'in_tracking') ORDER BY t.id",
    );
    fetch_records(tx, &sql).await
}

/// The action dates of a mandate's debits from `from` on (withdrawn ones
/// aside): the days the payer's bank is already asked to pay under it.
pub async fn debit_days_of_mandate(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    mandate_id: &str,
    from: &str,
) -> AppResult<Vec<String>> {
    let rows = sqlx::query(
        "SELECT DISTINCT action_date FROM transactions WHERE merchant_id = $1 AND mode = $2 \
         AND mandate_id = $3 AND action_date >= $4 AND status <> 'cancelled' ORDER BY action_date",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(mandate_id)
    .bind(from)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.iter().map(|r| r.get("action_date")).collect())
}

pub async fn list_transactions(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    filter: &TransactionFilter,
    page: &PageRequest,
) -> AppResult<Vec<Transaction>> {
    let mut sql = Sql::in_stream(SELECT, "t", merchant_id, mode);
    sql.and_some(
        "t.status = {}",
        filter.status.map(|s| Bind::Text(wire_name(&s))),
    );
    sql.and_some(
        "t.method = {}",
        filter.method.map(|m| Bind::Text(m.as_str().into())),
    );
    sql.and_some(
        "t.payment_id = {}",
        filter.payment_id.clone().map(Bind::Text),
    );
    sql.and_some("t.order_id = {}", filter.order_id.clone().map(Bind::Text));
    sql.and_some(
        "t.customer_id = {}",
        filter.customer_id.clone().map(Bind::Text),
    );
    sql.and_some("t.action_date >= {}", filter.from.clone().map(Bind::Text));
    sql.and_some("t.action_date <= {}", filter.to.clone().map(Bind::Text));
    sql.and_some("t.amount_cents >= {}", filter.min_cents.map(Bind::Int));
    sql.and_some("t.amount_cents <= {}", filter.max_cents.map(Bind::Int));
    sql.and_search(
        filter.search.as_deref(),
        &[
            "c.search_text",
            "LOWER(t.payer_name)",
            "LOWER(t.reference)",
            "LOWER(m.contract_reference)",
        ],
        "b.account_number",
    );
    push_page(&mut sql, "t", page);
    let rows = sql.query().fetch_all(&db.pool).await?;
    rows.iter().map(|r| from_row(r).map(|t| t.view)).collect()
}

/// The latest changed debits, newest change first.
pub async fn recently_changed(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    limit: u32,
) -> AppResult<Vec<Transaction>> {
    let mut sql = Sql::in_stream(SELECT, "t", merchant_id, mode);
    let limit = sql.int_arg(i64::from(limit));
    sql.push(&format!(
        " ORDER BY t.updated_at DESC, t.id DESC LIMIT {limit}"
    ));
    let rows = sql.query().fetch_all(&db.pool).await?;
    rows.iter().map(|r| from_row(r).map(|t| t.view)).collect()
}

/// Settled payments between two business dates (inclusive), per method and
/// status: `(method, status, count, cents)`.
pub async fn settled_between(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    from: &str,
    to: &str,
) -> AppResult<Vec<(String, String, i64, i64)>> {
    let rows = sqlx::query(
        "SELECT method, status, COUNT(*) AS n, CAST(COALESCE(SUM(amount_cents), 0) AS BIGINT) AS cents \
         FROM transactions WHERE merchant_id = $1 AND mode = $2 AND settled_on >= $3 AND settled_on <= $4 \
         GROUP BY method, status",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(from)
    .bind(to)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|r| (r.get("method"), r.get("status"), r.get("n"), r.get("cents")))
        .collect())
}

/// Debits the bank paid with a settlement date between two business dates
/// (inclusive), oldest settlement first: the money that reached the
/// merchant, for the accounting export. `(settled_on, transaction)`.
pub async fn paid_settled_between(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    from: &str,
    to: &str,
) -> AppResult<Vec<(String, Transaction)>> {
    let sql = format!(
        "{SELECT} WHERE t.merchant_id = $1 AND t.mode = $2 AND t.status = 'paid' \
         AND t.settled_on >= $3 AND t.settled_on <= $4 ORDER BY t.settled_on, t.id"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(from)
        .bind(to)
        .fetch_all(&db.pool)
        .await?;
    rows.iter()
        .map(|row| {
            let record = from_row(row)?;
            Ok((record.settled_on.unwrap_or_default(), record.view))
        })
        .collect()
}
