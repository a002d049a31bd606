//! Whose an id is, across every merchant and mode: the one lookup in the
//! store that is scoped by nothing. It exists so that a client using another
//! merchant's id leaves a security log line, and so that a member following
//! a link into the wrong business or mode is told which of their own teams'
//! the record is (`domain::record_places`). It must never decide what anyone
//! else is answered (that would tell an attacker which ids exist).

use protocol::Mode;
use sqlx::Row;

use super::Db;
use crate::error::AppResult;

/// The tables of merchant data by the prefix of their ids (`ids::new_id`).
/// Every one of them has `id`, `merchant_id` and `mode` columns.
const TABLES_BY_PREFIX: &[(&str, &str)] = &[
    ("cus", "customers"),
    ("ba", "bank_accounts"),
    ("man", "mandates"),
    ("pay", "payments"),
    ("txn", "transactions"),
    ("imp", "imports"),
    ("ppg", "pay_pages"),
    ("ord", "orders"),
    ("card", "cards"),
    ("att", "pay_attempts"),
    ("po", "payouts"),
];

/// Who holds a piece of merchant data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    pub merchant_id: String,
    pub mode: Mode,
}

/// The merchant and mode an id of merchant data belongs to, if it exists
/// at all. Ids of no known kind are looked up nowhere.
pub async fn owner_of(db: &Db, id: &str) -> AppResult<Option<Owner>> {
    let Some(table) = table_of(id) else {
        return Ok(None);
    };
    // The table name comes from the fixed list above, never from the id.
    let sql = format!("SELECT merchant_id, mode FROM {table} WHERE id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.and_then(|row| {
        Some(Owner {
            merchant_id: row.get("merchant_id"),
            mode: Mode::parse(&row.get::<String, _>("mode"))?,
        })
    }))
}

/// Whether `id` has the shape of an id of merchant data.
pub fn names_merchant_data(id: &str) -> bool {
    table_of(id).is_some()
}

fn table_of(id: &str) -> Option<&'static str> {
    let (prefix, rest) = id.split_once('_')?;
    if rest.is_empty() || !crate::ids::is_well_formed_id(id) {
        return None;
    }
    TABLES_BY_PREFIX
        .iter()
        .find(|(known, _)| *known == prefix)
        .map(|(_, table)| *table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_well_formed_ids_of_known_kinds_name_a_table() {
        assert_eq!(table_of("cus_0123abc"), Some("customers"));
        assert_eq!(table_of("att_0123abc"), Some("pay_attempts"));
        assert_eq!(table_of("usr_0123abc"), None);
        assert_eq!(table_of("cus_"), None);
        assert_eq!(table_of("cus_a b"), None);
        assert_eq!(table_of("customers"), None);
    }
}
