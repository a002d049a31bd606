//! Record versions: every change the one write path commits stamps the
//! records it wrote with the event's seq, in the event's transaction, so a
//! record's `version` always names the last event that changed it and an
//! edit begun from an older one is seen to be stale (`domain::conflicts`).

use protocol::Change;

use super::Tx;
use super::stream::StreamKey;
use crate::error::AppResult;

/// Stamps `seq` on every versioned record the changes wrote, row and change alike.
pub(super) async fn stamp(
    tx: &mut Tx,
    key: &StreamKey,
    seq: u64,
    changes: &mut [Change],
) -> AppResult<()> {
    for change in changes.iter_mut() {
        if let Change::CustomerUpserted { customer } = change {
            sqlx::query("UPDATE customers SET version = $4 WHERE merchant_id = $1 AND mode = $2 AND id = $3")
                .bind(&key.merchant_id)
                .bind(key.mode.as_str())
                .bind(&customer.id)
                .bind(seq as i64)
                .execute(&mut **tx)
                .await?;
            customer.version = seq;
        }
    }
    Ok(())
}
