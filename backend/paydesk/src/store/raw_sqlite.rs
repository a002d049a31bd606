//! The group-commit writer's own SQLite connection, called on the thread it
//! runs on. Through `sqlx` every statement of a write is a hop to the
//! connection's own thread and back, and every row and statement result
//! wakes the waiting thread again: with a handful of round trips per write,
//! those hops were about half of what a write cost, and the serial writer
//! was the product's ceiling. Here a statement runs where it is asked for.
//!
//! It speaks the `Any` driver's language, so the library's queries run on
//! it unchanged (`conn::Conn` is what they run on): the same `$N`
//! placeholders, the texts of several statements run in turn, and rows of
//! the same values the `Any` driver makes of SQLite's (integers are
//! `BigInt`, reals `Double`). Errors are `sqlx` database errors with SQLite's
//! extended codes, as the driver's are.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags, ToSql};
use sqlx::Either;
use sqlx::error::{DatabaseError, ErrorKind};
use sqlx_core::any::{
    AnyArguments, AnyColumn, AnyQueryResult, AnyRow, AnyTypeInfo, AnyTypeInfoKind, AnyValue,
    AnyValueKind,
};
use sqlx_core::ext::ustr::UStr;

/// Prepared statements kept by the connection: the writes' statements are
/// a few dozen texts, run over and over.
const STATEMENT_CACHE: usize = 256;

/// What a text's statements returned, in order: each row, and each
/// statement's result once it is done (as `sqlx` streams them).
pub(super) type Results = Vec<Result<Either<AnyQueryResult, AnyRow>, sqlx::Error>>;

/// An open SQLite connection. The mutex is never contended (one writer
/// uses it at a time); it makes a transaction holding it `Sync`, as the
/// futures that borrow one must be. Boxed, so a transaction that holds it
/// stays as small as one that holds a pool's connection.
pub(super) struct RawConn {
    inner: Box<Mutex<Inner>>,
}

struct Inner {
    conn: Connection,
    /// Each text's statements, split once.
    texts: HashMap<String, Arc<[String]>>,
    /// Each statement's columns.
    columns: HashMap<String, Arc<Columns>>,
}

/// A statement's column names, as rows carry them, and the kind a NULL of
/// each column has: its declared type's, as the `Any` driver gives it.
struct Columns {
    names: Arc<sqlx_core::HashMap<UStr, usize>>,
    null_kinds: Vec<AnyTypeInfoKind>,
}

impl std::fmt::Debug for RawConn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RawConn")
    }
}

impl RawConn {
    /// Opens the database file (which must exist) read-write and runs
    /// `pragmas` (`store::sqlite_pragma_text`, as on the pools' connections).
    pub(super) fn open(file: &Path, pragmas: &str) -> Result<RawConn, sqlx::Error> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(file, flags).map_err(database_error)?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        conn.execute_batch(pragmas).map_err(database_error)?;
        Ok(RawConn {
            inner: Box::new(Mutex::new(Inner {
                conn,
                texts: HashMap::new(),
                columns: HashMap::new(),
            })),
        })
    }

    /// Runs every statement of `sql` with `arguments`, stopping at the
    /// first that fails (its error is the last result).
    pub(super) fn run(&self, sql: &str, arguments: Option<AnyArguments>) -> Results {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let values = arguments.map(|a| a.values.0).unwrap_or_default();
        let statements = inner.statements(sql);
        let mut results = Vec::new();
        let mut positional = 0;
        for statement in statements.iter() {
            if let Err(err) = inner.run_one(statement, &values, &mut positional, &mut results) {
                results.push(Err(err));
                break;
            }
        }
        results
    }

    /// The rows of every statement of `sql`, or the first error.
    pub(super) fn rows(
        &self,
        sql: &str,
        arguments: Option<AnyArguments>,
    ) -> Result<Vec<AnyRow>, sqlx::Error> {
        let mut rows = Vec::new();
        for result in self.run(sql, arguments) {
            if let Either::Right(row) = result? {
                rows.push(row);
            }
        }
        Ok(rows)
    }

    /// Runs `sql` (no arguments), for the writer's own statements.
    pub(super) fn execute(&self, sql: &str) -> Result<(), sqlx::Error> {
        self.run(sql, None)
            .into_iter()
            .try_for_each(|r| r.map(drop))
    }
}

impl Inner {
    fn statements(&mut self, sql: &str) -> Arc<[String]> {
        if let Some(split) = self.texts.get(sql) {
            return Arc::clone(split);
        }
        let split: Arc<[String]> = split_statements(sql).into();
        // Texts are the library's own, so they are few; a bound keeps a
        // text built with values in it from growing the map.
        if self.texts.len() < 4 * STATEMENT_CACHE {
            self.texts.insert(sql.to_string(), Arc::clone(&split));
        }
        split
    }

    fn run_one(
        &mut self,
        sql: &str,
        values: &[AnyValueKind],
        positional: &mut usize,
        results: &mut Results,
    ) -> Result<(), sqlx::Error> {
        let mut statement = self.conn.prepare_cached(sql).map_err(database_error)?;
        for index in 1..=statement.parameter_count() {
            // As `sqlx` binds SQLite's parameters: `$N` and `?N` by number,
            // a bare `?` in turn; one past the arguments stays NULL.
            let n = match statement.parameter_name(index) {
                Some(name) => numbered(name)?,
                None => {
                    *positional += 1;
                    *positional
                }
            };
            let Some(value) = n.checked_sub(1).and_then(|i| values.get(i)) else {
                break;
            };
            statement
                .raw_bind_parameter(index, Arg(value))
                .map_err(database_error)?;
        }
        let columns = match self.columns.get(sql) {
            Some(columns) => Arc::clone(columns),
            None => {
                let columns = Arc::new(Columns {
                    names: Arc::new(
                        statement
                            .column_names()
                            .into_iter()
                            .enumerate()
                            .map(|(i, name)| (UStr::new(name), i))
                            .collect(),
                    ),
                    null_kinds: statement
                        .columns()
                        .iter()
                        .map(|c| declared_kind(c.decl_type()))
                        .collect(),
                });
                if self.columns.len() < 4 * STATEMENT_CACHE {
                    self.columns.insert(sql.to_string(), Arc::clone(&columns));
                }
                columns
            }
        };
        let count = statement.column_count();
        let mut rows = statement.raw_query();
        while let Some(row) = rows.next().map_err(database_error)? {
            let mut out = AnyRow {
                column_names: Arc::clone(&columns.names),
                columns: Vec::with_capacity(count),
                values: Vec::with_capacity(count),
            };
            for i in 0..count {
                let kind = match value_of(row.get_ref(i).map_err(database_error)?) {
                    AnyValueKind::Null(_) => AnyValueKind::Null(columns.null_kinds[i]),
                    kind => kind,
                };
                let name = row.as_ref().column_name(i).map_err(database_error)?;
                out.columns.push(AnyColumn {
                    ordinal: i,
                    name: UStr::new(name),
                    type_info: AnyTypeInfo {
                        kind: type_of(&kind),
                    },
                });
                out.values.push(AnyValue { kind });
            }
            results.push(Ok(Either::Right(out)));
        }
        drop(rows);
        results.push(Ok(Either::Left(AnyQueryResult {
            // As `sqlx` reports it: SQLite's count of the last statement
            // that changed rows.
            rows_affected: self.conn.changes(),
            last_insert_id: Some(self.conn.last_insert_rowid()),
        })));
        Ok(())
    }
}

/// The argument number of a `$N` or `?N` parameter.
fn numbered(name: &str) -> Result<usize, sqlx::Error> {
    name.strip_prefix('$')
        .or_else(|| name.strip_prefix('?'))
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| sqlx::Error::Protocol(format!("unsupported SQL parameter: {name}")))
}

/// An `Any` argument, bound as the SQLite driver binds it.
struct Arg<'a>(&'a AnyValueKind);

impl ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match self.0 {
            AnyValueKind::Null(_) => ValueRef::Null,
            AnyValueKind::Bool(b) => ValueRef::Integer(i64::from(*b)),
            AnyValueKind::SmallInt(i) => ValueRef::Integer(i64::from(*i)),
            AnyValueKind::Integer(i) => ValueRef::Integer(i64::from(*i)),
            AnyValueKind::BigInt(i) => ValueRef::Integer(*i),
            AnyValueKind::Real(r) => ValueRef::Real(f64::from(*r)),
            AnyValueKind::Double(r) => ValueRef::Real(*r),
            AnyValueKind::Text(s) => ValueRef::Text(s.as_bytes()),
            AnyValueKind::TextSlice(s) => ValueRef::Text(s.as_bytes()),
            AnyValueKind::Blob(b) => ValueRef::Blob(b),
            // A kind added to `sqlx` later: refused rather than guessed.
            _ => {
                return Err(rusqlite::Error::ToSqlConversionFailure(
                    "an argument of a kind SQLite does not take".into(),
                ));
            }
        }))
    }
}

/// A column's value as the `Any` driver makes it of SQLite's: by the
/// value's own type.
fn value_of(value: ValueRef<'_>) -> AnyValueKind {
    match value {
        ValueRef::Null => AnyValueKind::Null(AnyTypeInfoKind::Null),
        ValueRef::Integer(i) => AnyValueKind::BigInt(i),
        ValueRef::Real(r) => AnyValueKind::Double(r),
        ValueRef::Text(t) => AnyValueKind::Text(Arc::new(String::from_utf8_lossy(t).into_owned())),
        ValueRef::Blob(b) => AnyValueKind::Blob(Arc::new(b.to_vec())),
    }
}

/// The kind of a column's declared type, by the SQLite driver's reading
/// of it; none (an expression) or one the `Any` driver does not take is
/// `Null`.
fn declared_kind(declared: Option<&str>) -> AnyTypeInfoKind {
    let Some(declared) = declared.map(str::to_ascii_lowercase) else {
        return AnyTypeInfoKind::Null;
    };
    match declared.as_str() {
        "int4" => AnyTypeInfoKind::Integer,
        "boolean" | "bool" | "date" | "time" | "datetime" | "timestamp" => AnyTypeInfoKind::Null,
        d if d.contains("int") => AnyTypeInfoKind::BigInt,
        d if d.contains("char") || d.contains("clob") || d.contains("text") => {
            AnyTypeInfoKind::Text
        }
        d if d.contains("blob") => AnyTypeInfoKind::Blob,
        d if d.contains("real") || d.contains("floa") || d.contains("doub") => {
            AnyTypeInfoKind::Double
        }
        _ => AnyTypeInfoKind::Null,
    }
}

fn type_of(kind: &AnyValueKind) -> AnyTypeInfoKind {
    match kind {
        AnyValueKind::BigInt(_) => AnyTypeInfoKind::BigInt,
        AnyValueKind::Double(_) => AnyTypeInfoKind::Double,
        AnyValueKind::Text(_) => AnyTypeInfoKind::Text,
        AnyValueKind::Blob(_) => AnyTypeInfoKind::Blob,
        _ => AnyTypeInfoKind::Null,
    }
}

/// The statements of a text, split at the semicolons outside quotes and
/// comments (the library's texts have no trigger bodies).
fn split_statements(sql: &str) -> Vec<String> {
    let mut statements = Vec::new();
    let mut start = 0;
    let mut chars = sql.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\'' | '"' | '`' => {
                // A doubled quote inside is two quotes in a row: both skipped.
                for (_, d) in chars.by_ref() {
                    if d == c {
                        break;
                    }
                }
            }
            '-' if chars.peek().is_some_and(|(_, d)| *d == '-') => {
                for (_, d) in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek().is_some_and(|(_, d)| *d == '*') => {
                chars.next();
                let mut star = false;
                for (_, d) in chars.by_ref() {
                    if star && d == '/' {
                        break;
                    }
                    star = d == '*';
                }
            }
            ';' => {
                push_statement(&mut statements, &sql[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    push_statement(&mut statements, &sql[start..]);
    statements
}

fn push_statement(statements: &mut Vec<String>, text: &str) {
    let text = text.trim();
    if !text.is_empty() {
        statements.push(text.to_string());
    }
}

/// A SQLite error, told as the `sqlx` driver tells it: a database error
/// with the extended result code (so `is_busy` and the constraint checks
/// read it alike).
#[derive(Debug)]
pub struct RawSqliteError {
    code: i32,
    message: String,
}

fn database_error(err: rusqlite::Error) -> sqlx::Error {
    match err {
        rusqlite::Error::SqliteFailure(failure, message) => {
            let message = message.unwrap_or_else(|| failure.to_string());
            sqlx::Error::Database(Box::new(RawSqliteError {
                code: failure.extended_code,
                message,
            }))
        }
        other => sqlx::Error::Protocol(format!("sqlite: {other}")),
    }
}

impl std::fmt::Display for RawSqliteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "(code: {}) {}", self.code, self.message)
    }
}

impl std::error::Error for RawSqliteError {}

impl RawSqliteError {
    /// SQLite's extended result code.
    pub fn extended_code(&self) -> i32 {
        self.code
    }
}

impl DatabaseError for RawSqliteError {
    fn message(&self) -> &str {
        &self.message
    }

    fn code(&self) -> Option<Cow<'_, str>> {
        Some(Cow::Owned(self.code.to_string()))
    }

    fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self
    }

    fn kind(&self) -> ErrorKind {
        // SQLITE_CONSTRAINT_* extended codes.
        match self.code {
            1555 | 2067 => ErrorKind::UniqueViolation,
            787 => ErrorKind::ForeignKeyViolation,
            1299 => ErrorKind::NotNullViolation,
            275 => ErrorKind::CheckViolation,
            _ => ErrorKind::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// A connection to `file` with the pragmas the writer's has.
    fn open(file: &Path) -> RawConn {
        let pragmas = crate::store::sqlite_pragma_text(Duration::from_secs(1), true);
        RawConn::open(file, &pragmas).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn splits_at_semicolons_outside_quotes_and_comments() {
        let sql =
            "SAVEPOINT member;\nINSERT INTO t VALUES ('a;b', \"c;d\") -- e;f\n; /* g; */ SELECT 1;";
        assert_eq!(
            split_statements(sql),
            vec![
                "SAVEPOINT member",
                "INSERT INTO t VALUES ('a;b', \"c;d\") -- e;f",
                "/* g; */ SELECT 1",
            ]
        );
    }

    /// The same text and arguments on the `Any` driver's connection and on
    /// this one, each on a file of its own, give the same rows (names,
    /// values and their kinds) and the same counts.
    #[tokio::test]
    async fn answers_as_the_any_driver_answers() {
        use futures_util::StreamExt;
        use sqlx::{Connection, Executor, Row};
        sqlx::any::install_default_drivers();
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let schema = "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB, flag INTEGER)";
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("any.db").display());
        let mut any = sqlx::AnyConnection::connect(&url)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        any.execute(schema).await.unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("raw.db");
        std::fs::File::create(&file).unwrap_or_else(|e| panic!("{e}"));
        let raw = open(&file);
        raw.execute(schema).unwrap_or_else(|e| panic!("{e}"));

        let text = "INSERT INTO t (name, score, data, flag) VALUES ($1, $2, $3, $4), ($1, NULL, NULL, NULL); \
                    UPDATE t SET score = score + 1 WHERE name = $1; \
                    SELECT id, name, score, data, flag, count(*) OVER () AS n, 'x;y' AS s FROM t ORDER BY id";
        let query = || {
            sqlx::query(text)
                .bind("thandi")
                .bind(2.5_f64)
                .bind(vec![1_u8, 2])
                .bind(true)
        };
        let from_any: Results = any.fetch_many(query()).collect().await;
        let mut arguments = query();
        let arguments =
            sqlx::Execute::take_arguments(&mut arguments).unwrap_or_else(|e| panic!("{e}"));
        let from_raw = raw.run(text, arguments);

        let shape = |r: &Result<Either<AnyQueryResult, AnyRow>, sqlx::Error>| match r {
            Ok(Either::Left(done)) => format!("done {}", done.rows_affected()),
            Ok(Either::Right(row)) => (0..row.columns().len())
                .map(|i| {
                    let value = row.try_get_raw(i).unwrap_or_else(|e| panic!("{e}"));
                    let kind = sqlx::ValueRef::to_owned(&value).kind;
                    format!("{}={kind:?}", row.columns()[i].name)
                })
                .collect::<Vec<_>>()
                .join(" "),
            Err(err) => format!("error {err}"),
        };
        let any_shapes: Vec<String> = from_any.iter().map(shape).collect();
        let raw_shapes: Vec<String> = from_raw.iter().map(shape).collect();
        assert_eq!(any_shapes.len(), 5, "two counts, two rows, one count");
        assert_eq!(any_shapes, raw_shapes);
    }

    #[test]
    fn runs_statements_in_turn_with_numbered_arguments() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("raw.db");
        std::fs::File::create(&file).unwrap_or_else(|e| panic!("{e}"));
        let conn = open(&file);
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, score REAL)")
            .unwrap_or_else(|e| panic!("{e}"));
        let mut args = AnyArguments::default();
        args.values
            .0
            .push(AnyValueKind::Text(Arc::new("ayanda".into())));
        args.values.0.push(AnyValueKind::Double(1.5));
        let results = conn.run(
            "INSERT INTO t (name, score) VALUES ($1, $2); SELECT id, name, score, NULL AS gone FROM t WHERE name = $1",
            Some(args),
        );
        let rows: Vec<&AnyRow> = results
            .iter()
            .filter_map(|r| match r {
                Ok(Either::Right(row)) => Some(row),
                _ => None,
            })
            .collect();
        assert_eq!(results.len(), 3, "a result per statement and one row");
        use sqlx::Row;
        assert_eq!(rows[0].try_get::<i64, _>("id").ok(), Some(1));
        assert_eq!(
            rows[0].try_get::<String, _>("name").ok().as_deref(),
            Some("ayanda")
        );
        assert_eq!(rows[0].try_get::<f64, _>("score").ok(), Some(1.5));
        assert_eq!(
            rows[0].try_get::<Option<String>, _>("gone").ok(),
            Some(None)
        );

        let mut again = AnyArguments::default();
        again
            .values
            .0
            .push(AnyValueKind::Text(Arc::new("ayanda".into())));
        let failed = conn.run("INSERT INTO t (name) VALUES ($1)", Some(again));
        match failed.last() {
            Some(Err(sqlx::Error::Database(db))) => {
                assert!(db.is_unique_violation());
                assert_eq!(db.code().as_deref(), Some("2067"));
            }
            _ => panic!("a duplicate name is refused"),
        }
    }
}
