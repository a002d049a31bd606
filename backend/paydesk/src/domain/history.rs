//! The account history as a member reads it: the stream's entries and the
//! members' account entries, limited to the sections the member may read
//! (owners and admins read them all). Read-only: no command edits or
//! deletes an entry.

use protocol::{
    Change, ErrorCode, HistoryDetail, HistoryEntry, HistoryFilter, HistoryRecordKind, Mode,
    RecordEdit, ReplyBody,
};
use sqlx::Row;

use super::permissions::readable_sections;
use super::scope::{Scope, checked_id};
use crate::error::{AppError, AppResult};
use crate::store::Db;
use crate::store::history_reads::{self as store, field_changes};
use crate::store::stream::{self, Actor, Cause, StreamKey, Work};

pub async fn list_history(
    db: &Db,
    scope: &Scope,
    filter: &HistoryFilter,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    let key = StreamKey::new(scope.merchant_id.clone(), scope.mode);
    let readable = readable_sections(&scope.permissions);
    let cursor = cursor.map(checked_id).transpose()?;
    let (items, next_cursor) = store::list(db, &key, &readable, filter, cursor, limit).await?;
    let people = store::people(db, &key, &readable).await?;
    Ok(ReplyBody::HistoryPage {
        items,
        people,
        next_cursor,
    })
}

/// One entry with every field before and after. An entry of another
/// merchant, or of a section the member may not read, is not found.
pub async fn get_entry(db: &Db, scope: &Scope, entry_id: &str) -> AppResult<ReplyBody> {
    let key = StreamKey::new(scope.merchant_id.clone(), scope.mode);
    let readable = readable_sections(&scope.permissions);
    let stored = store::get(db, &key, &readable, checked_id(entry_id)?)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(ReplyBody::HistoryEntry {
        detail: Box::new(HistoryDetail {
            changes: field_changes(stored.before.as_ref(), stored.after.as_ref()),
            entry: stored.entry,
            command_id: stored.command_id,
            seq: stored.seq,
        }),
    })
}

/// Who last changed a record and which fields, for a form open on it.
/// The entry's address and browser stay the history's.
pub async fn last_edit(
    db: &Db,
    scope: &Scope,
    kind: HistoryRecordKind,
    record_id: &str,
) -> AppResult<ReplyBody> {
    let key = StreamKey::new(scope.merchant_id.clone(), scope.mode);
    let readable = readable_sections(&scope.permissions);
    let record = (kind.as_str(), checked_id(record_id)?);
    let both_modes = kind == HistoryRecordKind::BusinessInfo;
    let entry = store::newest_of_record(db, &key, &readable, record, both_modes)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(ReplyBody::LastEdit {
        edit: RecordEdit {
            actor_kind: entry.actor_kind,
            actor_id: entry.actor_id,
            actor_name: entry.actor_name,
            at: entry.at,
            action: entry.action,
            fields: entry.fields,
        },
    })
}

/// Announces an entry of a user's account (a sign-in, a failed sign-in, a
/// two-factor change), already committed, to the open history screens of
/// every merchant the user is a member of: one event per stream of theirs
/// whose only change is the entry, written by the one writer like every
/// change that starts outside a merchant's actor (the pay page's), so the
/// caller publishes it with `MerchantRegistry::advance` and other nodes
/// hear of it through the relay. The entry itself stays a row of the
/// account, listed once. Returns the streams and the `seq` each reached.
pub async fn announce_account(db: &Db, entry: &HistoryEntry) -> AppResult<Vec<(StreamKey, u64)>> {
    let Some(user_id) = entry.actor_id.as_deref() else {
        return Ok(Vec::new());
    };
    // Only streams already made: a merchant no tab has opened in a mode
    // has no one to tell there.
    let rows = sqlx::query(
        "SELECT s.merchant_id, s.mode FROM merchant_streams s \
         JOIN memberships ms ON ms.merchant_id = s.merchant_id \
         WHERE ms.user_id = $1 ORDER BY s.merchant_id, s.mode",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    let cause = Cause {
        actor: Actor::Account {
            user_id: user_id.to_string(),
        },
        command_id: None,
        address: entry.address.clone(),
    };
    let mut announced = Vec::with_capacity(rows.len());
    for row in rows {
        let mode: String = row.get("mode");
        let Some(mode) = Mode::parse(&mode) else {
            continue;
        };
        let key = StreamKey::new(row.get::<String, _>("merchant_id"), mode);
        let change = Change::HistoryEntryAdded {
            entry: Box::new(entry.clone()),
        };
        let written = stream::write(db, &key, &cause, async |_tx, _seq| {
            Ok(Work::changed(vec![change], ()))
        })
        .await?;
        if let Some(seq) = written.seq {
            announced.push((key, seq));
        }
    }
    Ok(announced)
}
