//! Reads of the account history: its pages, one entry in full, the rows
//! of an export, and the people it can be filtered by. Every read starts
//! from one merchant stream (`merchant_history`) and keeps to the sections
//! the reader may see.

use protocol::{
    HistoryAction, HistoryActorKind, HistoryEntry, HistoryFieldChange, HistoryFilter,
    HistoryPerson, Section,
};
use serde_json::{Map, Value};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::Db;
use super::history::{name_field, record_name};
use super::sql::{Bind, Sql, flag, from_wire_name, opt_int, opt_text, page_limit, wire_name};
use super::stream::StreamKey;
use crate::error::AppResult;

const COLUMNS: &str = "h.id, h.merchant_id, h.seq, h.actor_kind, h.actor_id, h.actor_name, \
    h.command_id, h.address, h.user_agent, h.section, h.record_kind, h.record_id, h.action, \
    h.fields, h.before_json, h.after_json, h.created_at";

/// A stream's rows and its members' account rows (from when they joined),
/// as one table `h`. Every history query starts here.
fn merchant_history(key: &StreamKey) -> Sql {
    let mut sql = Sql::new("SELECT * FROM (SELECT ");
    let merchant = sql.text_arg(&key.merchant_id);
    let mode = sql.text_arg(key.mode.as_str());
    let merchant_again = sql.text_arg(&key.merchant_id);
    sql.push(&format!(
        "{COLUMNS} FROM history_entries h WHERE h.merchant_id = {merchant} AND h.mode = {mode} \
         UNION ALL SELECT {COLUMNS} FROM history_entries h JOIN memberships m \
         ON m.user_id = h.user_id AND m.merchant_id = {merchant_again} \
         WHERE h.merchant_id IS NULL AND h.created_at >= m.created_at) h WHERE 1 = 1"
    ));
    sql
}

/// Only entries of sections `readable` names, and those of no section.
fn readable_only(sql: &mut Sql, readable: &[Section]) {
    let condition = readable_condition(sql, "h", readable);
    sql.push(&condition);
}

/// ` AND ...` keeping `alias`'s rows to the sections `readable` names and
/// those of no section; nothing when every section is readable.
fn readable_condition(sql: &mut Sql, alias: &str, readable: &[Section]) -> String {
    if readable.len() == Section::ALL.len() {
        return String::new();
    }
    let mut names: Vec<String> = Vec::new();
    for section in readable {
        names.push(sql.text_arg(&wire_name(section)));
    }
    if names.is_empty() {
        format!(" AND {alias}.section IS NULL")
    } else {
        format!(
            " AND ({alias}.section IS NULL OR {alias}.section IN ({}))",
            names.join(", ")
        )
    }
}

/// The entries a filter matches, of the sections the reader may read.
fn matching(key: &StreamKey, readable: &[Section], filter: &HistoryFilter) -> Sql {
    let mut sql = merchant_history(key);
    readable_only(&mut sql, readable);
    sql.and_some(
        "h.actor_kind = 'user' AND h.actor_id = {}",
        filter.person.clone().map(Bind::Text),
    )
    .and_some(
        "h.record_kind = {}",
        filter.record_kind.clone().map(Bind::Text),
    )
    .and_some(
        "h.action = {}",
        filter.action.map(|a| Bind::Text(a.as_str().into())),
    )
    .and_some("h.created_at >= {}", filter.from.map(Bind::Int))
    .and_some("h.created_at < {}", filter.to.map(Bind::Int));
    sql
}

/// One page of the history, newest first; the cursor is the last id seen
/// (ids start with their time, so they sort as the entries happened).
pub async fn list(
    db: &Db,
    key: &StreamKey,
    readable: &[Section],
    filter: &HistoryFilter,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<(Vec<HistoryEntry>, Option<String>)> {
    let limit = page_limit(limit);
    let mut sql = matching(key, readable, filter);
    sql.and_some("h.id < {}", cursor.map(|c| Bind::Text(c.into())));
    let limit_arg = sql.int_arg(i64::from(limit) + 1);
    sql.push(&format!(" ORDER BY h.id DESC LIMIT {limit_arg}"));
    let rows = sql.query().fetch_all(&db.pool).await?;
    let mut items: Vec<HistoryEntry> = rows.iter().map(entry_of).collect();
    let more = items.len() > limit as usize;
    items.truncate(limit as usize);
    let next = items.last().filter(|_| more).map(|e| e.id.clone());
    Ok((items, next))
}

/// One entry in full, if the member may read it.
pub struct StoredEntry {
    pub entry: HistoryEntry,
    pub command_id: Option<String>,
    pub seq: Option<i64>,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

pub async fn get(
    db: &Db,
    key: &StreamKey,
    readable: &[Section],
    id: &str,
) -> AppResult<Option<StoredEntry>> {
    let mut sql = merchant_history(key);
    readable_only(&mut sql, readable);
    sql.and("h.id = {}", Bind::Text(id.into()));
    let row = sql.query().fetch_optional(&db.pool).await?;
    Ok(row.as_ref().map(stored_of))
}

fn stored_of(row: &AnyRow) -> StoredEntry {
    StoredEntry {
        entry: entry_of(row),
        command_id: opt_text(row, "command_id"),
        seq: opt_int(row, "seq"),
        before: json_column(row, "before_json"),
        after: json_column(row, "after_json"),
    }
}

/// The newest entry of one record, if the reader may read it. A record
/// shared by both modes (business info) counts its entries of either.
pub async fn newest_of_record(
    db: &Db,
    key: &StreamKey,
    readable: &[Section],
    record: (&str, &str),
    both_modes: bool,
) -> AppResult<Option<HistoryEntry>> {
    let mut sql = Sql::new(&format!(
        "SELECT {COLUMNS} FROM history_entries h WHERE h.merchant_id = "
    ));
    let merchant = sql.text_arg(&key.merchant_id);
    sql.push(&merchant);
    if both_modes {
        sql.push(" AND h.mode IN ('live', 'test')");
    } else {
        let mode = sql.text_arg(key.mode.as_str());
        sql.push(&format!(" AND h.mode = {mode}"));
    }
    sql.and("h.record_kind = {}", Bind::Text(record.0.into()))
        .and("h.record_id = {}", Bind::Text(record.1.into()));
    readable_only(&mut sql, readable);
    sql.push(" ORDER BY h.id DESC LIMIT 1");
    let row = sql.query().fetch_optional(&db.pool).await?;
    Ok(row.as_ref().map(entry_of))
}

/// Where an export goes on from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFrom<'a> {
    /// The newest entry the filter matches.
    Start,
    /// The entries older than this one.
    Before(&'a str),
    /// This entry and those older than it.
    At(&'a str),
}

/// Up to `limit` entries in full that a filter matches, newest first, from
/// `from` on: the rows of the history's export.
pub async fn export_rows(
    db: &Db,
    key: &StreamKey,
    readable: &[Section],
    filter: &HistoryFilter,
    from: ExportFrom<'_>,
    limit: u32,
) -> AppResult<Vec<StoredEntry>> {
    let mut sql = matching(key, readable, filter);
    match from {
        ExportFrom::Start => {}
        ExportFrom::Before(id) => {
            sql.and("h.id < {}", Bind::Text(id.into()));
        }
        ExportFrom::At(id) => {
            sql.and("h.id <= {}", Bind::Text(id.into()));
        }
    }
    let limit_arg = sql.int_arg(i64::from(limit));
    sql.push(&format!(" ORDER BY h.id DESC LIMIT {limit_arg}"));
    let rows = sql.query().fetch_all(&db.pool).await?;
    Ok(rows.iter().map(stored_of).collect())
}

/// Every field of a record before and after, as JSON text.
pub fn field_changes(before: Option<&Value>, after: Option<&Value>) -> Vec<HistoryFieldChange> {
    let empty = Map::new();
    let b = before.and_then(Value::as_object).unwrap_or(&empty);
    let a = after.and_then(Value::as_object).unwrap_or(&empty);
    let mut names: Vec<&String> = a.keys().collect();
    names.extend(b.keys().filter(|k| !a.contains_key(*k)));
    names
        .into_iter()
        .map(|field| HistoryFieldChange {
            field: field.clone(),
            before: b.get(field).map(Value::to_string),
            after: a.get(field).map(Value::to_string),
        })
        .collect()
}

/// The people the history can be filtered by: the merchant's members, and
/// those removed from the team (in either mode) whose entries of this
/// stream the reader may still read.
pub async fn people(
    db: &Db,
    key: &StreamKey,
    readable: &[Section],
) -> AppResult<Vec<HistoryPerson>> {
    let mut sql = Sql::new("SELECT u.id, u.name, CAST(0 AS BIGINT) AS former FROM memberships m ");
    let merchant = sql.text_arg(&key.merchant_id);
    sql.push(&format!(
        "JOIN users u ON u.id = m.user_id WHERE m.merchant_id = {merchant} \
         UNION SELECT u.id, u.name, CAST(1 AS BIGINT) AS former FROM users u WHERE u.id IN "
    ));
    // Removed in either mode: the removal is an entry of the mode it was made in.
    let merchant = sql.text_arg(&key.merchant_id);
    sql.push(&format!(
        "(SELECT r.record_id FROM history_entries r WHERE r.merchant_id = {merchant} \
         AND r.mode IN ('live', 'test') AND r.record_kind = 'member' AND r.action = 'removed')"
    ));
    let merchant = sql.text_arg(&key.merchant_id);
    sql.push(&format!(
        " AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.merchant_id = {merchant} \
         AND m.user_id = u.id)"
    ));
    let merchant = sql.text_arg(&key.merchant_id);
    let mode = sql.text_arg(key.mode.as_str());
    let readable = readable_condition(&mut sql, "a", readable);
    sql.push(&format!(
        " AND EXISTS (SELECT 1 FROM history_entries a WHERE a.merchant_id = {merchant} \
         AND a.mode = {mode} AND a.actor_kind = 'user' AND a.actor_id = u.id{readable}) \
         ORDER BY 2, 1"
    ));
    let rows = sql.query().fetch_all(&db.pool).await?;
    Ok(rows
        .iter()
        .map(|r| HistoryPerson {
            user_id: r.get("id"),
            name: r.get("name"),
            former: flag(r, "former"),
        })
        .collect())
}

fn json_column(row: &AnyRow, column: &str) -> Option<Value> {
    opt_text(row, column).and_then(|text| serde_json::from_str(&text).ok())
}

fn entry_of(row: &AnyRow) -> HistoryEntry {
    let text = |column: &str| opt_text(row, column).unwrap_or_default();
    let record_kind = text("record_kind");
    // Read from the record as the row keeps it, so entries written before
    // names were shown name their record too. Only kinds named by a field
    // parse it.
    let record_name = name_field(&record_kind).and_then(|_| {
        let (before, after) = (
            json_column(row, "before_json"),
            json_column(row, "after_json"),
        );
        record_name(&record_kind, before.as_ref(), after.as_ref())
    });
    HistoryEntry {
        id: text("id"),
        at: opt_int(row, "created_at").unwrap_or_default(),
        actor_kind: from_wire_name(&text("actor_kind")).unwrap_or(HistoryActorKind::Unrecorded),
        actor_id: opt_text(row, "actor_id"),
        actor_name: opt_text(row, "actor_name"),
        address: opt_text(row, "address"),
        user_agent: opt_text(row, "user_agent"),
        record_kind,
        record_id: opt_text(row, "record_id"),
        record_name,
        action: HistoryAction::parse(&text("action")).unwrap_or(HistoryAction::Updated),
        fields: text("fields")
            .split(' ')
            .filter(|f| !f.is_empty())
            .map(str::to_string)
            .collect(),
        section: opt_text(row, "section").and_then(|s| from_wire_name(&s)),
    }
}
