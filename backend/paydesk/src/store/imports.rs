//! Imports: the confirmed file, its progress and its problems. Every
//! function takes the merchant id and mode, except the resume scan.

use std::collections::HashMap;

use protocol::{ErrorCode, Import, ImportIssue, ImportStatus, Mode, PaymentKind};
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};

use super::bulk::{BulkInsert, Value};
use super::sql::{Bind, Cursor, Sql, opt_int, opt_text, stored, wire_name};
use super::{Db, Tx};
use crate::error::{AppError, AppResult};

const COLUMNS: &str = "id, mode, kind, template, file_name, status, total_rows, valid_rows, \
     invalid_rows, committed_rows, failed_rows, skipped_rows, include_duplicates, duplicate_of, \
     created_by_name, created_at, finished_at";

fn count(row: &AnyRow, column: &str) -> u32 {
    row.get::<i64, _>(column).clamp(0, i64::from(u32::MAX)) as u32
}

fn from_row(row: &AnyRow) -> AppResult<Import> {
    Ok(Import {
        id: row.get("id"),
        mode: stored(&row.get::<String, _>("mode"), "mode")?,
        kind: stored(&row.get::<String, _>("kind"), "payment kind")?,
        template: stored(&row.get::<String, _>("template"), "import template")?,
        file_name: row.get("file_name"),
        status: stored(&row.get::<String, _>("status"), "import status")?,
        rows: count(row, "total_rows"),
        valid: count(row, "valid_rows"),
        invalid: count(row, "invalid_rows"),
        committed: count(row, "committed_rows"),
        failed: count(row, "failed_rows"),
        skipped: count(row, "skipped_rows"),
        include_duplicates: row.get::<i64, _>("include_duplicates") != 0,
        duplicate_of: opt_text(row, "duplicate_of"),
        created_by_name: row.get("created_by_name"),
        created_at: row.get("created_at"),
        finished_at: opt_int(row, "finished_at"),
    })
}

/// A new import, before its first batch.
pub struct NewImport<'a> {
    pub import: &'a Import,
    pub file: &'a [u8],
    /// `file_sha256` of `file`.
    pub file_sha256: &'a str,
    /// The rows checking read (`reader::kept`), which the commit reads.
    pub kept_rows: &'a [u8],
    /// See `CheckedFile::customer_last_rows`.
    pub customer_last_rows: &'a HashMap<String, u32>,
    pub checked_on: &'a str,
    pub created_by: &'a str,
}

pub async fn insert_import(tx: &mut Tx, merchant_id: &str, new: &NewImport<'_>) -> AppResult<()> {
    let i = new.import;
    sqlx::query(
        "INSERT INTO imports (id, merchant_id, mode, kind, template, file_name, checked_on, status, \
         total_rows, valid_rows, invalid_rows, committed_rows, failed_rows, next_row, created_by, \
         created_by_name, created_at, finished_at, file_sha256, include_duplicates, duplicate_of, \
         skipped_rows) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, \
         0, 0, 0, $12, $13, $14, NULL, $15, $16, $17, 0)",
    )
    .bind(&i.id)
    .bind(merchant_id)
    .bind(i.mode.as_str())
    .bind(wire_name(&i.kind))
    .bind(i.template.as_str())
    .bind(&i.file_name)
    .bind(new.checked_on)
    .bind(wire_name(&i.status))
    .bind(i64::from(i.rows))
    .bind(i64::from(i.valid))
    .bind(i64::from(i.invalid))
    .bind(new.created_by)
    .bind(&i.created_by_name)
    .bind(i.created_at)
    .bind(new.file_sha256)
    .bind(i64::from(i.include_duplicates))
    .bind(i.duplicate_of.clone())
    .execute(&mut **tx)
    .await?;
    // The file lives apart from the row each batch updates (0007_import_speed).
    let last_rows = serde_json::to_string(new.customer_last_rows)
        .map_err(|e| AppError::Internal(format!("customer last rows as JSON: {e}")))?;
    sqlx::query(
        "INSERT INTO import_files (import_id, file, kept_rows, customer_last_rows) VALUES ($1, $2, $3, $4)",
    )
    .bind(&i.id)
    .bind(new.file)
    .bind(new.kept_rows)
    .bind(last_rows)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn insert_issues(tx: &mut Tx, import_id: &str, issues: &[ImportIssue]) -> AppResult<()> {
    let codes: Vec<String> = issues.iter().map(|i| wire_name(&i.code)).collect();
    let rows: Vec<Vec<Value>> = issues
        .iter()
        .zip(&codes)
        .map(|(issue, code)| {
            vec![
                Value::Int(i64::from(issue.row)),
                Value::Text(&issue.column),
                Value::Text(code),
            ]
        })
        .collect();
    BulkInsert {
        head: "INSERT INTO import_issues (import_id, row_number, column_name, code)",
        shared: vec![Value::Text(import_id)],
        shared_sql: "$1",
        tail: "",
    }
    .run(tx, &rows)
    .await
}

pub async fn find_import<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<Import>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let mut sql = Sql::in_stream(
        &format!("SELECT {COLUMNS} FROM imports i"),
        "i",
        merchant_id,
        mode,
    );
    sql.and("i.id = {}", Bind::Text(id.to_string()));
    let row = sql.query().fetch_optional(executor).await?;
    row.as_ref().map(from_row).transpose()
}

/// What identifies a file: the SHA-256 of its bytes, in lower-case hex.
pub fn file_sha256(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The latest import of this stream whose file had these bytes (`file_sha256`).
pub async fn latest_of_file<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    file_sha256: &str,
) -> AppResult<Option<Import>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let mut sql = Sql::in_stream(
        &format!("SELECT {COLUMNS} FROM imports i"),
        "i",
        merchant_id,
        mode,
    );
    sql.and("i.file_sha256 = {}", Bind::Text(file_sha256.to_string()));
    sql.push(" ORDER BY i.created_at DESC, i.id DESC LIMIT 1");
    let row = sql.query().fetch_optional(executor).await?;
    row.as_ref().map(from_row).transpose()
}

/// Newest first, `limit + 1` rows so the caller knows whether more follow.
pub async fn list_imports(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    kind: PaymentKind,
    after: Option<&Cursor>,
    limit: u32,
) -> AppResult<Vec<Import>> {
    let mut sql = Sql::in_stream(
        &format!("SELECT {COLUMNS} FROM imports i"),
        "i",
        merchant_id,
        mode,
    );
    sql.and("i.kind = {}", Bind::Text(wire_name(&kind)));
    if let Some(after) = after {
        let key = sql.int_arg(after.key);
        let id = sql.text_arg(&after.id);
        sql.push(&format!(
            " AND (i.created_at < {key} OR (i.created_at = {key} AND i.id < {id}))"
        ));
    }
    let limit = sql.int_arg(i64::from(limit) + 1);
    sql.push(&format!(
        " ORDER BY i.created_at DESC, i.id DESC LIMIT {limit}"
    ));
    let rows = sql.query().fetch_all(&db.pool).await?;
    rows.iter().map(from_row).collect()
}

/// One page of the problems of an import of this stream, by row, and how
/// many there are.
pub async fn list_issues(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    import_id: &str,
    offset: u32,
    limit: u32,
) -> AppResult<(Vec<ImportIssue>, u32)> {
    let of_import = |select: &str| {
        let mut sql = Sql::in_stream(
            &format!("{select} FROM import_issues s JOIN imports i ON i.id = s.import_id"),
            "i",
            merchant_id,
            mode,
        );
        sql.and("i.id = {}", Bind::Text(import_id.to_string()));
        sql
    };
    let mut page = of_import("SELECT s.row_number, s.column_name, s.code");
    let limit = page.int_arg(i64::from(limit));
    let offset = page.int_arg(i64::from(offset));
    page.push(&format!(
        " ORDER BY s.row_number, s.column_name LIMIT {limit} OFFSET {offset}"
    ));
    let rows = page.query().fetch_all(&db.pool).await?;
    let total: i64 = of_import("SELECT COUNT(*) AS n")
        .query()
        .fetch_one(&db.pool)
        .await?
        .get("n");
    let items = rows
        .iter()
        .map(|row| {
            Ok(ImportIssue {
                row: count(row, "row_number"),
                column: row.get("column_name"),
                code: stored::<ErrorCode>(&row.get::<String, _>("code"), "error code")?,
            })
        })
        .collect::<AppResult<Vec<_>>>()?;
    Ok((items, total.clamp(0, i64::from(u32::MAX)) as u32))
}

/// Where a commit reads its rows.
pub enum PendingRows {
    /// The rows checking kept (`reader::kept`).
    Kept(Vec<u8>),
    /// The file itself, for imports confirmed before rows were kept.
    File(Vec<u8>),
}

/// What a commit needs to carry on where the last one stopped.
pub struct Pending {
    pub merchant_id: String,
    pub import: Import,
    pub rows: PendingRows,
    pub checked_on: String,
    pub next_row: u32,
    /// None for imports confirmed before it was kept.
    pub customer_last_rows: Option<HashMap<String, u32>>,
}

pub async fn find_pending(db: &Db, id: &str) -> AppResult<Option<Pending>> {
    let row = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS}, merchant_id, f.kept_rows, CASE WHEN f.kept_rows IS NULL THEN f.file END AS file, \
         f.customer_last_rows, checked_on, next_row FROM imports \
         JOIN import_files f ON f.import_id = imports.id WHERE id = $1 AND status = $2"
    )))
    .bind(id)
    .bind(wire_name(&ImportStatus::Committing))
    .fetch_optional(&db.pool)
    .await?;
    row.map(|row| {
        let last_rows: Option<String> = row.get("customer_last_rows");
        let customer_last_rows = last_rows
            .map(|json| serde_json::from_str(&json))
            .transpose()
            .map_err(|e| AppError::Internal(format!("customer last rows: {e}")))?;
        let kept_rows: Option<Vec<u8>> = row.get("kept_rows");
        let rows = match kept_rows {
            Some(kept) => PendingRows::Kept(kept),
            None => PendingRows::File(row.get("file")),
        };
        Ok(Pending {
            customer_last_rows,
            rows,
            merchant_id: row.get("merchant_id"),
            import: from_row(&row)?,
            checked_on: row.get("checked_on"),
            next_row: count(&row, "next_row"),
        })
    })
    .transpose()
}

/// Claims a confirmed import for this node's job until `lease_until`: the
/// one asked for (`only`), or else the oldest that no live node holds. An
/// import is free when it never had a lease or its lease ran out, as when
/// the node writing it stopped. On PostgreSQL a row another node is claiming
/// at the same moment is skipped, not waited on.
pub async fn claim(
    db: &Db,
    only: Option<&str>,
    now: i64,
    lease_until: i64,
) -> AppResult<Option<String>> {
    let sql = format!(
        "UPDATE imports SET lease_until = $3 WHERE id IN (\
         SELECT id FROM imports WHERE status = $1 AND (lease_until IS NULL OR lease_until <= $2) \
         AND ($4 IS NULL OR id = $4) ORDER BY created_at LIMIT 1{}) RETURNING id",
        db.backend.skip_locked()
    );
    let mut tx = db.begin_write().await?;
    let id = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(wire_name(&ImportStatus::Committing))
        .bind(now)
        .bind(lease_until)
        .bind(only)
        .fetch_optional(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(id)
}

/// Frees every import's lease. Only for a single node's start on SQLite,
/// which no other process writes: any lease there is its own previous run's.
pub async fn release_leases(db: &Db) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "UPDATE imports SET lease_until = NULL WHERE status = $1 AND lease_until IS NOT NULL",
    )
    .bind(wire_name(&ImportStatus::Committing))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// How many confirmed imports wait for or are in the import job, on every
/// node: the queue's depth for the operator's metrics.
pub async fn committing_count(db: &Db) -> AppResult<i64> {
    let count = sqlx::query_scalar("SELECT COUNT(*) FROM imports WHERE status = $1")
        .bind(wire_name(&ImportStatus::Committing))
        .fetch_one(&db.pool)
        .await?;
    Ok(count)
}

/// What one batch came to.
#[derive(Clone, Copy, Debug, Default)]
pub struct BatchCounts {
    pub committed: u32,
    pub failed: u32,
    /// Repeats of a payment or of an earlier row, left out.
    pub skipped: u32,
}

/// Moves the cursor from `from_row` to `to_row` with the batch's counts.
/// False when the cursor was not at `from_row`: another worker took the
/// batch, and this one must stop.
///
/// Each batch renews the writing node's lease to `lease_until`.
pub async fn advance(
    tx: &mut Tx,
    import_id: &str,
    from_row: u32,
    to_row: u32,
    counts: BatchCounts,
    lease_until: i64,
) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE imports SET next_row = $1, committed_rows = committed_rows + $2, failed_rows = failed_rows + $3, \
         skipped_rows = skipped_rows + $7, lease_until = $8 WHERE id = $4 AND next_row = $5 AND status = $6",
    )
    .bind(i64::from(to_row))
    .bind(i64::from(counts.committed))
    .bind(i64::from(counts.failed))
    .bind(import_id)
    .bind(i64::from(from_row))
    .bind(wire_name(&ImportStatus::Committing))
    .bind(i64::from(counts.skipped))
    .bind(lease_until)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn finish(tx: &mut Tx, import_id: &str, now: i64) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE imports SET status = $1, finished_at = $2 WHERE id = $3 AND status = $4",
    )
    .bind(wire_name(&ImportStatus::Completed))
    .bind(now)
    .bind(import_id)
    .bind(wire_name(&ImportStatus::Committing))
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn reload(tx: &mut Tx, merchant_id: &str, mode: Mode, id: &str) -> AppResult<Import> {
    find_import(&mut **tx, merchant_id, mode, id)
        .await?
        .ok_or_else(|| crate::error::AppError::Internal("import vanished".into()))
}

/// The stored file of an import of this stream, and every one of its problems.
pub async fn file_and_issues(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<(String, Vec<u8>, Vec<ImportIssue>)>> {
    let mut sql = Sql::in_stream(
        "SELECT i.file_name, f.file FROM imports i JOIN import_files f ON f.import_id = i.id",
        "i",
        merchant_id,
        mode,
    );
    sql.and("i.id = {}", Bind::Text(id.to_string()));
    let Some(row) = sql.query().fetch_optional(&db.pool).await? else {
        return Ok(None);
    };
    let (issues, _) = list_issues(db, merchant_id, mode, id, 0, u32::MAX).await?;
    Ok(Some((row.get("file_name"), row.get("file"), issues)))
}
