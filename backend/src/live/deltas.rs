//! Deltas read back from the event table: a tab resuming from its last
//! `seq`, and a commit filling in what this node had not seen yet.

use paydesk::error::AppResult;
use paydesk::store::Db;
use paydesk::store::events;
use paydesk::store::stream::StreamKey;
use protocol::Change;

/// Deltas read back from the event table, oldest first.
pub(super) async fn read_deltas(
    db: &Db,
    key: &StreamKey,
    after: u64,
    count: u64,
) -> AppResult<Vec<(u64, Vec<Change>)>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let rows = events::events_after(db, &key.merchant_id, key.mode, after, count as i64).await?;
    rows.into_iter()
        .map(|(seq, bytes)| Ok((seq, protocol::decode(&bytes)?)))
        .collect()
}
