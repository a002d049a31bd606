//! SQLite: copying the write-ahead log into the database, beside the
//! group-commit writer instead of inside its commits. Left to SQLite, the
//! commit that crosses its threshold (1,000 pages) copies them and syncs the
//! database file before it answers, and every write queued behind that
//! group waits for it. The writer's own connection checkpoints only past a
//! much higher mark (`write_tx::Held`); after every so many writes it starts
//! a passive checkpoint on another connection, which copies what no reader
//! still needs while the writer goes on appending. When the writer's own
//! checkpoint does come, most of the log is copied already.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use sqlx::AnyPool;

/// Writes between checkpoints: about SQLite's own threshold for a lone
/// write of a few records (each one about twenty pages of log).
const WRITES_BETWEEN: usize = 50;

pub(super) struct Checkpoints {
    pool: AnyPool,
    since_last: usize,
    running: Arc<AtomicBool>,
}

impl Checkpoints {
    /// Checkpoints on a connection of `pool`, never the writer's own.
    pub(super) fn new(pool: AnyPool) -> Checkpoints {
        Checkpoints {
            pool,
            since_last: 0,
            running: Arc::default(),
        }
    }

    /// Counts `writes` just committed, and starts a checkpoint when enough
    /// were and none is running. Must be called on a Tokio runtime.
    pub(super) fn committed(&mut self, writes: usize) {
        self.since_last += writes;
        if self.since_last < WRITES_BETWEEN || self.running.swap(true, Ordering::AcqRel) {
            return;
        }
        self.since_last = 0;
        let (pool, running) = (self.pool.clone(), Arc::clone(&self.running));
        tokio::spawn(async move {
            if let Err(err) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(&pool)
                .await
            {
                tracing::warn!(error = %err, "a checkpoint of the write-ahead log failed");
            }
            running.store(false, Ordering::Release);
        });
    }
}
