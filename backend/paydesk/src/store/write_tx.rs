//! A write transaction and its turn. On SQLite a file has one writer at a
//! time: the writers of this process queue for it in arrival order and keep
//! their place until their transaction ends, so none of them ever polls
//! SQLite's lock against another (the busy handler's sleeps only meet
//! writers outside the process: another process, an operator's shell). A
//! writer that cannot start within the database's write wait is answered
//! `busy`, which the user may retry; it is never an internal error.

use std::ops::{Deref, DerefMut};

use protocol::ErrorCode;
use sqlx::AnyConnection;
use tokio::sync::OwnedMutexGuard;

use crate::error::{AppError, AppResult};

/// One write transaction: the database connection inside it (`&mut **tx`
/// is what queries run on), and on SQLite the file's turn, given back when
/// the transaction commits, rolls back or is dropped.
pub struct Tx {
    // Declared first, so it is dropped (and its rollback sent) before the
    // turn passes to the next writer.
    inner: sqlx::Transaction<'static, sqlx::Any>,
    _turn: Option<OwnedMutexGuard<()>>,
    /// When it began, for the transaction time in the metrics: how long it
    /// holds its connection (a writer on SQLite, the file's one turn).
    began: std::time::Instant,
}

impl Tx {
    pub(super) fn new(
        inner: sqlx::Transaction<'static, sqlx::Any>,
        turn: Option<OwnedMutexGuard<()>>,
    ) -> Tx {
        Tx {
            inner,
            _turn: turn,
            began: std::time::Instant::now(),
        }
    }

    pub async fn commit(self) -> AppResult<()> {
        let began = self.began;
        self.inner.commit().await?;
        record_duration("commit", began);
        Ok(())
    }

    pub async fn rollback(self) -> AppResult<()> {
        let began = self.began;
        self.inner.rollback().await?;
        record_duration("rollback", began);
        Ok(())
    }
}

fn record_duration(outcome: &'static str, began: std::time::Instant) {
    metrics::histogram!("paydesk_db_transaction_seconds", "outcome" => outcome)
        .record(began.elapsed().as_secs_f64());
}

impl Deref for Tx {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        &self.inner
    }
}

impl DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        &mut self.inner
    }
}

/// The database could not take the work in time: a lock held elsewhere (a
/// write transaction, a serialisation conflict) or no free connection. The
/// same request succeeds once the holder is done, so the user is told to try
/// again rather than that something broke.
pub fn is_busy(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::PoolTimedOut => true,
        sqlx::Error::Database(db) => {
            if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
                // SQLITE_BUSY (5) and SQLITE_LOCKED (6) with their extended
                // codes (BUSY_SNAPSHOT, BUSY_TIMEOUT, ...) in the high bits.
                let code = db.code().and_then(|code| code.parse::<i32>().ok());
                code.is_some_and(|code| matches!(code & 0xff, 5 | 6))
            } else if db
                .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
                .is_some()
            {
                // serialization_failure, deadlock_detected, lock_not_available.
                matches!(db.code().as_deref(), Some("40001" | "40P01" | "55P03"))
            } else {
                false
            }
        }
        _ => false,
    }
}

/// What a writer that waited out the write wait gets.
pub(super) fn busy() -> AppError {
    AppError::Code(ErrorCode::Busy)
}
