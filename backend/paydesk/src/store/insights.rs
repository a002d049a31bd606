//! The insights screen's aggregates: settled debits counted per period
//! bucket, method, status and reason code, and running schedules counted
//! per shape of their next collections. Both are `GROUP BY` queries, so a
//! merchant with a million debits is never loaded row by row; every query
//! is scoped by merchant and mode.

use protocol::{InsightBucket, Mode, PaymentMethod};
use sqlx::Row;

use super::sql::{Bind, Sql, opt_int, opt_text};
use super::{Backend, Db};
use crate::error::AppResult;

/// Settled debits of one bucket, method, status and reason code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettledGroup {
    pub bucket: String,
    pub method: String,
    pub status: String,
    pub unpaid_code: Option<String>,
    pub count: i64,
    pub cents: i64,
}

/// The first day of a settlement date's bucket, as `YYYY-MM-DD` text.
fn bucket_start(backend: Backend, bucket: InsightBucket) -> &'static str {
    match (bucket, backend) {
        (InsightBucket::Day, _) => "t.settled_on",
        // SQLite's `weekday 0` moves to the Sunday on or after; six days
        // back is that week's Monday.
        (InsightBucket::Week, Backend::Sqlite) => "date(t.settled_on, 'weekday 0', '-6 days')",
        (InsightBucket::Week, Backend::Postgres) => {
            "to_char(date_trunc('week', CAST(t.settled_on AS DATE)), 'YYYY-MM-DD')"
        }
        (InsightBucket::Month, _) => "substr(t.settled_on, 1, 7) || '-01'",
    }
}

/// Debits the bank settled between two business dates (inclusive), grouped.
pub async fn settled_groups(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    (from, to): (&str, &str),
    bucket: InsightBucket,
    method: Option<PaymentMethod>,
) -> AppResult<Vec<SettledGroup>> {
    let start = bucket_start(db.backend, bucket);
    let select = format!(
        "SELECT {start} AS bucket, t.method AS method, t.status AS status, t.unpaid_code AS unpaid_code, \
         COUNT(*) AS n, CAST(COALESCE(SUM(t.amount_cents), 0) AS BIGINT) AS cents FROM transactions t"
    );
    let mut sql = Sql::in_stream(&select, "t", merchant_id, mode);
    sql.and("t.settled_on >= {}", Bind::Text(from.into()));
    sql.and("t.settled_on <= {}", Bind::Text(to.into()));
    sql.and_some(
        "t.method = {}",
        method.map(|m| Bind::Text(m.as_str().into())),
    );
    sql.push(
        " AND t.status IN ('paid', 'disputed', 'reversed', 'unpaid', 'rejected_by_bank') \
         GROUP BY 1, t.method, t.status, t.unpaid_code ORDER BY 1, t.method, t.status, t.unpaid_code",
    );
    let rows = sql.query().fetch_all(&db.pool).await?;
    Ok(rows
        .iter()
        .map(|r| SettledGroup {
            bucket: r.get("bucket"),
            method: r.get("method"),
            status: r.get("status"),
            unpaid_code: opt_text(r, "unpaid_code"),
            count: r.get("n"),
            cents: r.get("cents"),
        })
        .collect())
}

/// Running payments that share the shape of their coming collections:
/// the same next date and the same schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleGroup {
    pub kind: String,
    pub interval: Option<String>,
    pub day_to_process: Option<i64>,
    pub start_date: Option<String>,
    pub end_date: Option<String>,
    pub next_nominal_date: Option<String>,
    pub next_action_date: String,
    pub allow_date_adjustment: bool,
    /// Regular debits on the next date (re-runs of an unpaid 02 go on days
    /// of their own: [`representation_days`]).
    pub next_count: i64,
    pub next_cents: i64,
    /// Recurring payments of the group, and their regular amount, for the
    /// dates after the next one.
    pub recurring: i64,
    pub recurring_cents: i64,
}

/// Running payments whose next collection is on or before `through`.
pub async fn schedule_groups(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    through: &str,
    method: Option<PaymentMethod>,
) -> AppResult<Vec<ScheduleGroup>> {
    // What the scheduler raises on a payment's next date: the regular debit
    // (a once-off one only before its first attempt), whose first
    // collection may have its own amount.
    const REGULAR: &str = "(p.kind = 'recurring' OR p.attempts = 0)";
    let select = format!(
        "SELECT p.kind AS kind, p.collection_interval AS interval, p.day_to_process AS day_to_process, \
         p.start_date AS start_date, p.end_date AS end_date, p.next_nominal_date AS next_nominal_date, \
         p.next_action_date AS next_action_date, m.allow_date_adjustment AS allow_date_adjustment, \
         CAST(SUM(CASE WHEN {REGULAR} THEN 1 ELSE 0 END) AS BIGINT) AS next_count, \
         CAST(SUM(CASE WHEN {REGULAR} THEN \
           (CASE WHEN p.attempts = 0 AND p.first_collection_cents IS NOT NULL \
            THEN p.first_collection_cents ELSE p.amount_cents END) ELSE 0 END) AS BIGINT) AS next_cents, \
         CAST(SUM(CASE WHEN p.kind = 'recurring' THEN 1 ELSE 0 END) AS BIGINT) AS recurring, \
         CAST(SUM(CASE WHEN p.kind = 'recurring' THEN p.amount_cents ELSE 0 END) AS BIGINT) AS recurring_cents \
         FROM payments p JOIN mandates m ON m.id = p.mandate_id"
    );
    let mut sql = Sql::in_stream(&select, "p", merchant_id, mode);
    sql.push(" AND p.status = 'running' AND p.next_action_date IS NOT NULL");
    sql.and("p.next_action_date <= {}", Bind::Text(through.into()));
    sql.and_some(
        "p.method = {}",
        method.map(|m| Bind::Text(m.as_str().into())),
    );
    sql.push(
        " GROUP BY p.kind, p.collection_interval, p.day_to_process, p.start_date, p.end_date, \
         p.next_nominal_date, p.next_action_date, m.allow_date_adjustment ORDER BY p.next_action_date",
    );
    let rows = sql.query().fetch_all(&db.pool).await?;
    Ok(rows
        .iter()
        .map(|r| ScheduleGroup {
            kind: r.get("kind"),
            interval: opt_text(r, "interval"),
            day_to_process: opt_int(r, "day_to_process"),
            start_date: opt_text(r, "start_date"),
            end_date: opt_text(r, "end_date"),
            next_nominal_date: opt_text(r, "next_nominal_date"),
            next_action_date: r.get("next_action_date"),
            allow_date_adjustment: r.try_get::<i64, _>("allow_date_adjustment").unwrap_or(0) != 0,
            next_count: r.get("next_count"),
            next_cents: r.get("next_cents"),
            recurring: r.get("recurring"),
            recurring_cents: r.get("recurring_cents"),
        })
        .collect())
}

/// The unpaid 02s running payments present again on or before `through`,
/// by day: `(day, count, cents)`.
pub async fn representation_days(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    through: &str,
    method: Option<PaymentMethod>,
) -> AppResult<Vec<(String, i64, i64)>> {
    let select = "SELECT p.rerun_date AS day, CAST(COUNT(*) AS BIGINT) AS n, \
         CAST(SUM(p.rerun_cents) AS BIGINT) AS cents FROM payments p";
    let mut sql = Sql::in_stream(select, "p", merchant_id, mode);
    sql.push(
        " AND p.status = 'running' AND p.rerun_cents IS NOT NULL AND p.rerun_date IS NOT NULL",
    );
    sql.and("p.rerun_date <= {}", Bind::Text(through.into()));
    sql.and_some(
        "p.method = {}",
        method.map(|m| Bind::Text(m.as_str().into())),
    );
    sql.push(" GROUP BY p.rerun_date ORDER BY p.rerun_date");
    let rows = sql.query().fetch_all(&db.pool).await?;
    Ok(rows
        .iter()
        .map(|r| (r.get("day"), r.get("n"), r.get("cents")))
        .collect())
}
