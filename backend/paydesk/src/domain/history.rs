//! The account history as a member reads it: the stream's entries and the
//! members' account entries, limited to the sections the member may read
//! (owners and admins read them all). Read-only: no command edits or
//! deletes an entry.

use protocol::{ErrorCode, HistoryDetail, HistoryFilter, ReplyBody};

use super::permissions::readable_sections;
use super::scope::{Scope, checked_id};
use crate::error::{AppError, AppResult};
use crate::store::Db;
use crate::store::history::{self as store, field_changes};
use crate::store::stream::StreamKey;

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
    let people = store::people(db, &scope.merchant_id).await?;
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
