//! Small helpers for queries whose filters vary: placeholders numbered as
//! they are added (`$N` works on SQLite and PostgreSQL alike), enum values
//! stored as their wire names, and keyset paging for the list screens.

use protocol::{Mode, SortOrder};
use sqlx::AssertSqlSafe;
use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;

use crate::error::{AppError, AppResult};

#[derive(Clone, Debug)]
pub enum Bind {
    Text(String),
    Int(i64),
    /// Nullable values carry their type: PostgreSQL will not put an
    /// untyped NULL into a typed column.
    OptText(Option<String>),
    OptInt(Option<i64>),
    Blob(Vec<u8>),
}

/// A statement and its arguments, built together so placeholders and binds
/// cannot drift apart.
#[derive(Clone, Default)]
pub struct Sql {
    text: String,
    binds: Vec<Bind>,
}

impl Sql {
    pub fn new(text: &str) -> Sql {
        Sql {
            text: text.to_string(),
            binds: Vec::new(),
        }
    }

    /// `select` limited to one merchant stream: every query of merchant data
    /// starts here, so none can forget the merchant or the mode.
    pub fn in_stream(select: &str, alias: &str, merchant_id: &str, mode: Mode) -> Sql {
        let mut sql = Sql::new(select);
        let merchant = sql.text_arg(merchant_id);
        let mode = sql.text_arg(mode.as_str());
        sql.push(&format!(
            " WHERE {alias}.merchant_id = {merchant} AND {alias}.mode = {mode}"
        ));
        sql
    }

    /// A whole statement with its arguments in `$N` order.
    pub fn statement(text: &str, binds: Vec<Bind>) -> Sql {
        Sql {
            text: text.to_string(),
            binds,
        }
    }

    /// Appends `next` as a statement of its own (for SQLite, which runs the
    /// statements of one text in turn), its placeholders renumbered to
    /// follow this one's arguments.
    pub fn then(&mut self, next: Sql) -> &mut Sql {
        let offset = self.binds.len();
        self.text.push_str(";\n");
        self.text.push_str(&renumbered(&next.text, offset));
        self.binds.extend(next.binds);
        self
    }

    pub fn push(&mut self, text: &str) -> &mut Sql {
        self.text.push_str(text);
        self
    }

    /// Appends a placeholder for `value` and returns its `$N`.
    pub fn arg(&mut self, value: Bind) -> String {
        self.binds.push(value);
        format!("${}", self.binds.len())
    }

    pub fn text_arg(&mut self, value: &str) -> String {
        self.arg(Bind::Text(value.to_string()))
    }

    pub fn int_arg(&mut self, value: i64) -> String {
        self.arg(Bind::Int(value))
    }

    /// Appends ` AND <condition>` where `{}` in the condition is `value`'s placeholder.
    pub fn and(&mut self, condition: &str, value: Bind) -> &mut Sql {
        let placeholder = self.arg(value);
        let condition = condition.replace("{}", &placeholder);
        self.push(" AND ").push(&condition)
    }

    /// Appends ` AND <condition>` only when there is a value.
    pub fn and_some(&mut self, condition: &str, value: Option<Bind>) -> &mut Sql {
        match value {
            Some(value) => self.and(condition, value),
            None => self,
        }
    }

    /// The list screens' search: any of `columns` (lowercased text) holds the
    /// words, or the account number ends in the digits typed.
    pub fn and_search(
        &mut self,
        search: Option<&str>,
        columns: &[&str],
        account_column: &str,
    ) -> &mut Sql {
        let Some(search) = search.map(str::trim).filter(|s| !s.is_empty()) else {
            return self;
        };
        let pattern = self.text_arg(&like_pattern(search));
        let digits = self.text_arg(&account_suffix(search));
        let mut alternatives: Vec<String> = columns
            .iter()
            .map(|column| format!("{column} LIKE {pattern} ESCAPE '\\'"))
            .collect();
        alternatives.push(format!("{account_column} LIKE {digits}"));
        self.push(&format!(" AND ({})", alternatives.join(" OR ")))
    }

    pub fn query(&self) -> Query<'_, sqlx::Any, AnyArguments> {
        let mut query = sqlx::query(AssertSqlSafe(self.text.clone()));
        for bind in &self.binds {
            query = match bind {
                Bind::Text(value) => query.bind(value.clone()),
                Bind::Int(value) => query.bind(*value),
                Bind::OptText(value) => query.bind(value.clone()),
                Bind::OptInt(value) => query.bind(*value),
                Bind::Blob(value) => query.bind(value.clone()),
            };
        }
        query
    }
}

/// `text` with every `$N` placeholder moved up by `offset`. Our statements
/// hold no `$` in literals, only in placeholders.
fn renumbered(text: &str, offset: usize) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        match rest[..digits].parse::<usize>() {
            Ok(n) => out.push_str(&(n + offset).to_string()),
            Err(_) => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

/// Enum values are stored as their wire names.
pub fn wire_name<T: serde::Serialize>(value: &T) -> String {
    match serde_variant::to_variant_name(value) {
        Ok(name) => name.to_string(),
        Err(_) => serde_json::to_value(value)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
    }
}

/// The wire name of a fieldless enum's value, with no allocation, for
/// writers of many rows. Anything but a fieldless enum has none: "".
pub fn variant_name<T: serde::Serialize>(value: &T) -> &'static str {
    serde_variant::to_variant_name(value).unwrap_or_default()
}

pub fn from_wire_name<T: serde::de::DeserializeOwned>(value: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(value.to_string())).ok()
}

/// A stored enum that no longer parses means the database and the code
/// disagree: an internal error, never a guess.
pub fn stored<T: serde::de::DeserializeOwned>(value: &str, column: &str) -> AppResult<T> {
    from_wire_name(value).ok_or_else(|| AppError::Internal(format!("unknown {column}: {value}")))
}

/// `%text%` for LIKE with the user's own `%`, `_` and `\` taken literally.
pub fn like_pattern(value: &str) -> String {
    let escaped = value
        .to_lowercase()
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    format!("%{escaped}%")
}

/// Matches account numbers ending in the searched digits; a search that is
/// not all digits matches none.
pub fn account_suffix(search: &str) -> String {
    let digits: String = search.chars().filter(|c| !c.is_whitespace()).collect();
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        format!("%{digits}")
    } else {
        "-".into()
    }
}

/// Where the next page of a list starts: the sort key and id of the last row.
pub struct Cursor {
    pub key: i64,
    pub id: String,
}

impl Cursor {
    pub fn encode(key: i64, id: &str) -> String {
        format!("{key}~{id}")
    }

    /// A cursor the server did not make is a bad request, not a crash.
    pub fn decode(value: Option<&str>) -> AppResult<Option<Cursor>> {
        let Some(value) = value else {
            return Ok(None);
        };
        let (key, id) = value
            .split_once('~')
            .ok_or(AppError::Code(protocol::ErrorCode::InvalidInput))?;
        let key = key
            .parse()
            .map_err(|_| AppError::Code(protocol::ErrorCode::InvalidInput))?;
        Ok(Some(Cursor {
            key,
            id: id.to_string(),
        }))
    }
}

/// Which page of a list to read.
pub struct PageRequest {
    pub sort: SortOrder,
    pub after: Option<Cursor>,
    pub limit: u32,
}

impl PageRequest {
    /// A list query's order, cursor and size as the client sent them.
    pub fn new(
        sort: SortOrder,
        cursor: Option<&str>,
        limit: Option<u32>,
    ) -> AppResult<PageRequest> {
        Ok(PageRequest {
            sort,
            after: Cursor::decode(cursor)?,
            limit: page_limit(limit),
        })
    }

    /// Splits the extra row off a page and makes the cursor of the next one
    /// from the last row's `(created_at, amount_cents, id)`.
    pub fn finish<T>(
        &self,
        mut items: Vec<T>,
        key_of: impl Fn(&T) -> (i64, i64, &str),
    ) -> (Vec<T>, Option<String>) {
        let more = items.len() > self.limit as usize;
        items.truncate(self.limit as usize);
        let next = items.last().filter(|_| more).map(|last| {
            let (created_at, amount_cents, id) = key_of(last);
            Cursor::encode(sort_key(self.sort, created_at, amount_cents), id)
        });
        (items, next)
    }
}

/// Lists page 50 rows unless asked otherwise, never more than 200.
pub fn page_limit(limit: Option<u32>) -> u32 {
    limit.unwrap_or(50).clamp(1, 200)
}

/// The sort key column of `alias` for an order, and whether it descends.
fn sort_column(sort: SortOrder, alias: &str) -> (String, bool) {
    match sort {
        SortOrder::Newest => (format!("{alias}.created_at"), true),
        SortOrder::Oldest => (format!("{alias}.created_at"), false),
        SortOrder::AmountHigh => (format!("{alias}.amount_cents"), true),
        SortOrder::AmountLow => (format!("{alias}.amount_cents"), false),
    }
}

/// The sort key of a row, for its cursor.
fn sort_key(sort: SortOrder, created_at: i64, amount_cents: i64) -> i64 {
    match sort {
        SortOrder::Newest | SortOrder::Oldest => created_at,
        SortOrder::AmountHigh | SortOrder::AmountLow => amount_cents,
    }
}

/// Appends the keyset condition, the order and the limit (one row more than
/// the page, which tells whether another page follows).
pub fn push_page(sql: &mut Sql, alias: &str, page: &PageRequest) {
    let (sort, after, limit) = (page.sort, page.after.as_ref(), page.limit);
    let (column, descending) = sort_column(sort, alias);
    let cmp = if descending { "<" } else { ">" };
    if let Some(cursor) = after {
        let key = sql.int_arg(cursor.key);
        let key_again = sql.int_arg(cursor.key);
        let id = sql.text_arg(&cursor.id);
        sql.push(&format!(
            " AND ({column} {cmp} {key} OR ({column} = {key_again} AND {alias}.id {cmp} {id}))"
        ));
    }
    let direction = if descending { "DESC" } else { "ASC" };
    let limit = sql.int_arg(i64::from(limit) + 1);
    sql.push(&format!(
        " ORDER BY {column} {direction}, {alias}.id {direction} LIMIT {limit}"
    ));
}

pub fn opt_text(row: &AnyRow, column: &str) -> Option<String> {
    use sqlx::Row;
    row.try_get::<Option<String>, _>(column).ok().flatten()
}

pub fn opt_int(row: &AnyRow, column: &str) -> Option<i64> {
    use sqlx::Row;
    row.try_get::<Option<i64>, _>(column).ok().flatten()
}

pub fn flag(row: &AnyRow, column: &str) -> bool {
    use sqlx::Row;
    row.try_get::<i64, _>(column).unwrap_or(0) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_appended_numbers_its_placeholders_after_the_first() {
        let mut sql = Sql::statement(
            "UPDATE a SET x = $2 WHERE id = $1",
            vec![Bind::Int(1), Bind::Int(2)],
        );
        sql.then(Sql::statement(
            "INSERT INTO b (p, q, r) VALUES ($1, $2, $1)",
            vec![Bind::Text("p".into()), Bind::OptInt(None)],
        ));
        assert_eq!(
            sql.text,
            "UPDATE a SET x = $2 WHERE id = $1;\nINSERT INTO b (p, q, r) VALUES ($3, $4, $3)"
        );
        assert_eq!(sql.binds.len(), 4);
        assert_eq!(renumbered("$10 + $9, '$'", 1), "$11 + $10, '$'");
    }
}
