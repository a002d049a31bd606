//! Multi-row inserts for bulk writes, never one statement per row. Values
//! every row shares (merchant, mode, time) are bound once as `$1..$k`. On
//! PostgreSQL each statement lists a few hundred tuples naming them again;
//! on SQLite all the rows go in as one JSON value (`run_json`).

use std::io::Write;

use sqlx::AssertSqlSafe;

use super::Tx;
use crate::error::{AppError, AppResult};

/// SQLite allows 32,766 parameters in one statement; stay well below.
const MAX_PARAMETERS: usize = 30_000;
/// And no statement grows past this many rows.
const MAX_ROWS: usize = 500;
/// Values per group of a row in SQLite's JSON (`ready_json`).
const JSON_GROUP: usize = 6;

#[derive(Clone, Debug)]
pub enum Value<'a> {
    Text(&'a str),
    Int(i64),
    NullText,
    NullInt,
}

impl<'a> Value<'a> {
    pub fn opt_text(value: Option<&'a str>) -> Value<'a> {
        value.map_or(Value::NullText, Value::Text)
    }

    pub fn opt_int(value: Option<i64>) -> Value<'a> {
        value.map_or(Value::NullInt, Value::Int)
    }
}

/// `INSERT INTO <table> (<columns>) <rows: shared start, then own values> <tail>`.
pub struct BulkInsert<'a> {
    /// `INSERT INTO table (shared columns..., row columns...)`.
    pub head: &'a str,
    /// The shared values, bound once as `$1..$k`.
    pub shared: Vec<Value<'a>>,
    /// How each row starts, naming shared values: e.g. `$1, $2, $3, $3, NULL`.
    pub shared_sql: &'a str,
    /// After the rows: an `ON CONFLICT` clause, or empty.
    pub tail: &'a str,
}

/// A value of a statement made ready ahead of running it: owned, as the
/// rows it came from may be gone by then.
#[derive(Clone, Debug)]
enum Bound {
    Text(String),
    Int(i64),
    NullText,
    NullInt,
}

impl From<&Value<'_>> for Bound {
    fn from(value: &Value<'_>) -> Bound {
        match value {
            Value::Text(text) => Bound::Text((*text).to_string()),
            Value::Int(int) => Bound::Int(*int),
            Value::NullText => Bound::NullText,
            Value::NullInt => Bound::NullInt,
        }
    }
}

/// A bulk insert turned into statements and their values (`BulkInsert::
/// ready`): the work of laying out the rows can be done while an earlier
/// statement runs, and the statements run later.
#[must_use]
pub struct ReadyInsert {
    statements: Vec<(String, Vec<Bound>)>,
}

impl ReadyInsert {
    pub async fn run(self, tx: &mut Tx) -> AppResult<()> {
        for (sql, values) in self.statements {
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for value in values {
                query = match value {
                    Bound::Text(text) => query.bind(text),
                    Bound::Int(int) => query.bind(int),
                    Bound::NullText => query.bind(None::<String>),
                    Bound::NullInt => query.bind(None::<i64>),
                };
            }
            query.execute(&mut **tx).await?;
        }
        Ok(())
    }
}

impl BulkInsert<'_> {
    pub async fn run(&self, tx: &mut Tx, rows: &[Vec<Value<'_>>]) -> AppResult<()> {
        let on_sqlite = tx.backend_name() == "SQLite";
        self.ready(on_sqlite, rows)?.run(tx).await
    }

    /// The statements that insert `rows`, laid out for SQLite or PostgreSQL.
    pub fn ready(&self, on_sqlite: bool, rows: &[Vec<Value<'_>>]) -> AppResult<ReadyInsert> {
        let Some(width) = rows.first().map(Vec::len) else {
            return Ok(ReadyInsert {
                statements: Vec::new(),
            });
        };
        if on_sqlite {
            return self.ready_json(rows, width);
        }
        let per_statement = (MAX_PARAMETERS / width.max(1)).clamp(1, MAX_ROWS);
        let mut statements = Vec::new();
        for chunk in rows.chunks(per_statement) {
            let mut sql = String::with_capacity(self.head.len() + chunk.len() * width * 6);
            sql.push_str(self.head);
            sql.push_str(" VALUES ");
            let mut next = self.shared.len() + 1;
            for (index, row) in chunk.iter().enumerate() {
                if index > 0 {
                    sql.push_str(", ");
                }
                sql.push('(');
                sql.push_str(self.shared_sql);
                for _ in row {
                    sql.push_str(", $");
                    sql.push_str(&next.to_string());
                    next += 1;
                }
                sql.push(')');
            }
            sql.push_str(self.tail);
            let values = self.shared.iter().chain(chunk.iter().flatten());
            statements.push((sql, values.map(Bound::from).collect()));
        }
        Ok(ReadyInsert { statements })
    }

    /// SQLite: the rows go in as one JSON array of arrays, bound once, and
    /// SQLite takes each row apart (`jsonb_each`, `->>`). A row is itself
    /// cut into groups of `JSON_GROUP` values (`[[a, b, ...], [g, ...]]`):
    /// SQLite finds an array's element by stepping over the ones before
    /// it, so a 23-value row took 253 steps to read; in groups, about 90. Bound value by
    /// value, a batch costs more in the driver than in SQLite itself: each
    /// text is copied three times on its way, and allocated and freed as
    /// often. The statement's text is the same for every batch of a
    /// table, so it is prepared once.
    fn ready_json(&self, rows: &[Vec<Value<'_>>], width: usize) -> AppResult<ReadyInsert> {
        let mut json: Vec<u8> = Vec::with_capacity(rows.len() * width * 16);
        json.push(b'[');
        for (index, row) in rows.iter().enumerate() {
            if index > 0 {
                json.push(b',');
            }
            json.push(b'[');
            for (column, value) in row.iter().enumerate() {
                if column % JSON_GROUP == 0 {
                    if column > 0 {
                        json.extend_from_slice(b"],");
                    }
                    json.push(b'[');
                } else {
                    json.push(b',');
                }
                match value {
                    Value::Text(text) => serde_json::to_writer(&mut json, text)
                        .map_err(|e| AppError::Internal(format!("bulk row as JSON: {e}")))?,
                    Value::Int(int) => write!(json, "{int}")
                        .map_err(|e| AppError::Internal(format!("bulk row as JSON: {e}")))?,
                    Value::NullText | Value::NullInt => json.extend_from_slice(b"null"),
                }
            }
            json.extend_from_slice(b"]]");
        }
        json.push(b']');
        let json = String::from_utf8(json)
            .map_err(|e| AppError::Internal(format!("bulk rows as JSON: {e}")))?;

        let columns: Vec<String> = (0..width)
            .map(|k| format!("r.value ->> '$[{}][{}]'", k / JSON_GROUP, k % JSON_GROUP))
            .collect();
        // `WHERE true`: without it SQLite would read an `ON CONFLICT` tail
        // as the join's constraint.
        let sql = format!(
            "{} SELECT {}, {} FROM jsonb_each(${}) AS r WHERE true{}",
            self.head,
            self.shared_sql,
            columns.join(", "),
            self.shared.len() + 1,
            self.tail
        );
        let mut values: Vec<Bound> = self.shared.iter().map(Bound::from).collect();
        values.push(Bound::Text(json));
        Ok(ReadyInsert {
            statements: vec![(sql, values)],
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use sqlx::Row;

    use super::*;
    use crate::store::Db;

    /// A scratch SQLite database holding one table, made by `create`. The
    /// folder goes when the guard is dropped.
    async fn scratch(create: String) -> (Db, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/bulk.db", dir.path().display()))
            .await
            .unwrap();
        let mut tx = db.begin_write().await.unwrap();
        sqlx::query(AssertSqlSafe(create))
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        (db, dir)
    }

    /// Every value comes back as it went in, through the JSON SQLite reads.
    #[tokio::test]
    async fn rows_come_back_exactly_and_conflicts_update() {
        let create = "CREATE TABLE t (owner TEXT, id TEXT PRIMARY KEY, name TEXT, cents INTEGER)";
        let (db, _dir) = scratch(create.to_string()).await;
        let awkward = "Ma\"ré \\ O'Brien\tÜnï 🚀\u{1}";
        let insert = |tail| BulkInsert {
            head: "INSERT INTO t (owner, id, name, cents)",
            shared: vec![Value::Text("mer_1")],
            shared_sql: "$1",
            tail,
        };
        let mut tx = db.begin_write().await.unwrap();
        let rows = vec![
            vec![Value::Text("a"), Value::Text(awkward), Value::Int(i64::MAX)],
            vec![Value::Text("b"), Value::NullText, Value::NullInt],
            vec![Value::Text("c"), Value::Text(""), Value::Int(-5)],
        ];
        insert("").run(&mut tx, &rows).await.unwrap();
        let again = vec![vec![Value::Text("c"), Value::Text("new"), Value::Int(7)]];
        insert(" ON CONFLICT (id) DO UPDATE SET name = excluded.name, cents = excluded.cents")
            .run(&mut tx, &again)
            .await
            .unwrap();
        tx.commit().await.unwrap();

        let stored: Vec<(String, String, Option<String>, Option<i64>)> =
            sqlx::query("SELECT owner, id, name, cents FROM t ORDER BY id")
                .fetch_all(&db.pool)
                .await
                .unwrap()
                .iter()
                .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
                .collect();
        let mer = || "mer_1".to_string();
        assert_eq!(
            stored,
            [
                (mer(), "a".into(), Some(awkward.into()), Some(i64::MAX)),
                (mer(), "b".into(), None, None),
                (mer(), "c".into(), Some("new".into()), Some(7)),
            ]
        );
        db.pool.close().await;
    }

    /// A row wider than a group of SQLite's JSON keeps every value in its
    /// column, across the groups' edges.
    #[tokio::test]
    async fn wide_rows_keep_each_value_in_its_column() {
        let width = 2 * JSON_GROUP + 3;
        let names: Vec<String> = (0..width).map(|k| format!("c{k}")).collect();
        let create = format!(
            "CREATE TABLE w (owner TEXT, {} TEXT)",
            names.join(" TEXT, ")
        );
        let (db, _dir) = scratch(create).await;
        let head = format!("INSERT INTO w (owner, {})", names.join(", "));
        let insert = BulkInsert {
            head: &head,
            shared: vec![Value::Text("mer_1")],
            shared_sql: "$1",
            tail: "",
        };
        let cells: Vec<Vec<String>> = (0..3)
            .map(|row| (0..width).map(|k| format!("r{row}k{k}")).collect())
            .collect();
        let rows: Vec<Vec<Value>> = cells
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .map(|(k, text)| match k {
                        k if k == JSON_GROUP => Value::NullText,
                        _ => Value::Text(text),
                    })
                    .collect()
            })
            .collect();
        let mut tx = db.begin_write().await.unwrap();
        insert.run(&mut tx, &rows).await.unwrap();
        tx.commit().await.unwrap();

        let select = format!("SELECT {} FROM w ORDER BY c0", names.join(", "));
        let stored: Vec<Vec<Option<String>>> = sqlx::query(AssertSqlSafe(select))
            .fetch_all(&db.pool)
            .await
            .unwrap()
            .iter()
            .map(|r| (0..width).map(|k| r.get(k)).collect())
            .collect();
        let expected: Vec<Vec<Option<String>>> = cells
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .map(|(k, text)| (k != JSON_GROUP).then(|| text.clone()))
                    .collect()
            })
            .collect();
        assert_eq!(stored, expected);
        db.pool.close().await;
    }
}
