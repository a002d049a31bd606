//! Deltas committed outside the merchant actor (the background scheduler,
//! an import's batches): the same `seq` lock and event row as a command, and
//! afterwards the actor of this node is told to publish, as if another node
//! had written.

use protocol::{Change, encode};

use super::messages::{Advance, StreamKey};
use super::registry::MerchantRegistry;
use super::relay;
use crate::error::AppResult;
use crate::store::{Backend, Db, Tx, events};

/// Takes the stream's next `seq` inside `tx` (its lock is held until commit).
pub async fn take_seq(tx: &mut Tx, key: &StreamKey) -> AppResult<u64> {
    events::take_next_seq(tx, &key.merchant_id, key.mode).await
}

/// Appends the delta under `seq` and, on PostgreSQL, announces it to the
/// other nodes once `tx` commits.
pub async fn append_delta(
    tx: &mut Tx,
    db: &Db,
    key: &StreamKey,
    seq: u64,
    changes: &[Change],
) -> AppResult<()> {
    events::append_event(tx, &key.merchant_id, key.mode, seq, &encode(&changes)?).await?;
    if db.backend == Backend::Postgres {
        relay::announce(tx, key, seq).await?;
    }
    Ok(())
}

/// After the commit: this node's tabs of the stream hear of it.
pub fn tell_actor(registry: &MerchantRegistry, key: &StreamKey, seq: u64) {
    if let Some(actor) = registry.running(key) {
        actor.do_send(Advance { seq });
    }
}
