//! Multi-row inserts for bulk writes: one statement per few hundred rows,
//! never one per row. Values every row shares (merchant, mode, time) are
//! bound once as `$1..$k` and named again in each row's tuple (on SQLite,
//! bound again per tuple as plain `?`, see `run`).

use sqlx::AssertSqlSafe;

use super::Tx;
use crate::error::AppResult;

/// SQLite allows 32,766 parameters in one statement; stay well below.
const MAX_PARAMETERS: usize = 30_000;
/// And no statement grows past this many rows.
const MAX_ROWS: usize = 500;

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

/// `INSERT INTO <table> (<columns>) VALUES (<shared>, <row values>), ...<tail>`.
pub struct BulkInsert<'a> {
    /// `INSERT INTO table (shared columns..., row columns...)`.
    pub head: &'a str,
    /// The shared values, bound once as `$1..$k`.
    pub shared: Vec<Value<'a>>,
    /// How each tuple starts, naming shared values: e.g. `$1, $2, $3, $3, NULL`
    /// (pieces separated by commas, none inside a piece).
    pub shared_sql: &'a str,
    /// After the VALUES list: an `ON CONFLICT` clause, or empty.
    pub tail: &'a str,
}

fn bind<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    value: &Value<'q>,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    match value {
        Value::Text(text) => query.bind(*text),
        Value::Int(int) => query.bind(*int),
        Value::NullText => query.bind(None::<String>),
        Value::NullInt => query.bind(None::<i64>),
    }
}

/// One piece of a tuple's shared start: a shared value, or SQL as written.
enum SharedSlot<'s> {
    Value(usize),
    Sql(&'s str),
}

impl BulkInsert<'_> {
    /// `shared_sql` split at its commas: `$2` names shared value 2.
    fn shared_slots(&self) -> Vec<SharedSlot<'_>> {
        self.shared_sql
            .split(',')
            .map(str::trim)
            .map(
                |part| match part.strip_prefix('$').and_then(|n| n.parse::<usize>().ok()) {
                    Some(n) if (1..=self.shared.len()).contains(&n) => SharedSlot::Value(n - 1),
                    _ => SharedSlot::Sql(part),
                },
            )
            .collect()
    }

    pub async fn run(&self, tx: &mut Tx, rows: &[Vec<Value<'_>>]) -> AppResult<()> {
        let Some(width) = rows.first().map(Vec::len) else {
            return Ok(());
        };
        // SQLite finds a `$N` parameter's name by walking the statement's
        // list of names, so binding n of them costs n²: there, every value is
        // a plain `?` bound in order, the shared ones again in each tuple.
        if tx.backend_name() == "SQLite" {
            return self.run_positional(tx, rows, width).await;
        }
        let per_statement = (MAX_PARAMETERS / width.max(1)).clamp(1, MAX_ROWS);
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
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for value in &self.shared {
                query = bind(query, value);
            }
            for row in chunk {
                for value in row {
                    query = bind(query, value);
                }
            }
            query.execute(&mut **tx).await?;
        }
        Ok(())
    }

    async fn run_positional(
        &self,
        tx: &mut Tx,
        rows: &[Vec<Value<'_>>],
        width: usize,
    ) -> AppResult<()> {
        let slots = self.shared_slots();
        let shared_per_row = slots
            .iter()
            .filter(|slot| matches!(slot, SharedSlot::Value(_)))
            .count();
        let per_statement = (MAX_PARAMETERS / (width + shared_per_row).max(1)).clamp(1, MAX_ROWS);
        for chunk in rows.chunks(per_statement) {
            let mut sql =
                String::with_capacity(self.head.len() + chunk.len() * (width + slots.len()) * 3);
            sql.push_str(self.head);
            sql.push_str(" VALUES ");
            for (index, row) in chunk.iter().enumerate() {
                if index > 0 {
                    sql.push_str(", ");
                }
                sql.push('(');
                for (i, slot) in slots.iter().enumerate() {
                    if i > 0 {
                        sql.push_str(", ");
                    }
                    match slot {
                        SharedSlot::Value(_) => sql.push('?'),
                        SharedSlot::Sql(text) => sql.push_str(text),
                    }
                }
                for _ in row {
                    sql.push_str(", ?");
                }
                sql.push(')');
            }
            sql.push_str(self.tail);
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for row in chunk {
                for slot in &slots {
                    if let SharedSlot::Value(n) = slot
                        && let Some(value) = self.shared.get(*n)
                    {
                        query = bind(query, value);
                    }
                }
                for value in row {
                    query = bind(query, value);
                }
            }
            query.execute(&mut **tx).await?;
        }
        Ok(())
    }
}
