//! A write transaction and its turn. On SQLite a file has one writer at a
//! time: the writers of this process queue for it in arrival order and keep
//! their place until their transaction ends, so none of them ever polls
//! SQLite's lock against another (the busy handler's sleeps only meet
//! writers outside the process: another process, an operator's shell). A
//! writer that cannot start within the database's write wait is answered
//! `busy`, which the user may retry; it is never an internal error.

use std::ops::{Deref, DerefMut};

use protocol::ErrorCode;
use sqlx::any::AnyRow;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool, Executor};

use super::conn::{Conn, Inner, parts};
use super::raw_sqlite::{RawConn, RawSqliteError};
use super::sql::Sql;
use tokio::sync::OwnedMutexGuard;

use crate::error::{AppError, AppResult};

/// One write transaction: the database connection inside it (`&mut **tx`
/// is what queries run on), and on SQLite the file's turn, given back when
/// the transaction commits, rolls back or is dropped.
pub struct Tx {
    // Declared first, so it is dropped (and its rollback sent) before the
    // turn passes to the next writer.
    inner: Conn,
    _turn: Option<OwnedMutexGuard<()>>,
    /// When it began, for the transaction time in the metrics: how long it
    /// holds its connection (a writer on SQLite, the file's one turn).
    began: std::time::Instant,
}

/// A writer's own connection, kept between its transactions: SQLite's
/// cache of the file's pages stays valid from one to the next (it is
/// thrown away whenever another connection wrote), and no check of the
/// connection on its way back to the pool costs a round trip.
pub(super) enum Held {
    /// One of the writer pool's (a database in memory, which another
    /// connection could not open).
    Pooled(PoolConnection<Any>),
    /// Its own connection to the file, called on the writer's thread.
    Raw(RawConn),
}

impl Held {
    /// A connection of `pool`, closed rather than given back if it is
    /// ever dropped inside a transaction.
    pub(super) async fn acquire(pool: &AnyPool) -> Result<Held, sqlx::Error> {
        let mut conn = pool.acquire().await?;
        conn.close_on_drop();
        Ok(Held::Pooled(conn))
    }

    /// Takes SQLite's write lock up front, as `SqliteTurn::begin` does, and
    /// runs `then` in the same round trip. A lock held elsewhere fails the
    /// `BEGIN`, before anything else ran.
    pub(super) async fn begin_immediate(&mut self, then: &Sql) -> Result<Vec<AnyRow>, sqlx::Error> {
        match self {
            Held::Pooled(conn) => {
                let mut begin = Sql::new("BEGIN IMMEDIATE");
                begin.then(then.clone());
                begin.query().fetch_all(&mut **conn).await
            }
            // Apart: a `BEGIN` that failed must not run `then` outside a
            // transaction.
            Held::Raw(raw) => {
                raw.execute("BEGIN IMMEDIATE")?;
                let (sql, arguments) = parts(then.query())?;
                raw.rows(sql.as_str(), arguments).inspect_err(|_| {
                    // A connection kept after a failed opening (`busy`) must
                    // not stay inside its transaction.
                    let _ = raw.execute("ROLLBACK");
                })
            }
        }
    }

    /// The transaction `begin_immediate` began, holding the connection
    /// until `Tx::end_held` gives it back.
    pub(super) fn into_tx(self, turn: Option<OwnedMutexGuard<()>>) -> Tx {
        let inner = match self {
            Held::Pooled(conn) => Inner::Held(conn),
            Held::Raw(raw) => Inner::Raw(raw),
        };
        Tx {
            inner: Conn(inner),
            _turn: turn,
            began: std::time::Instant::now(),
        }
    }

    /// Closes it, for a writer that stops.
    pub(super) async fn close(self) {
        if let Held::Pooled(conn) = self {
            let _ = conn.close().await;
        }
    }
}

impl Tx {
    pub(super) fn new(
        inner: sqlx::Transaction<'static, sqlx::Any>,
        turn: Option<OwnedMutexGuard<()>>,
    ) -> Tx {
        Tx {
            inner: Conn(Inner::Pooled(inner)),
            _turn: turn,
            began: std::time::Instant::now(),
        }
    }

    pub async fn commit(self) -> AppResult<()> {
        self.end_held(true).await.0
    }

    pub async fn rollback(self) -> AppResult<()> {
        self.end_held(false).await.0
    }

    /// A transaction its writer committed with a statement of its own (its
    /// last rows and the `COMMIT` in one round trip): the held connection,
    /// for the writer's next transaction.
    pub(super) fn committed_held(self) -> Option<Held> {
        let Tx {
            inner,
            _turn,
            began,
        } = self;
        record_duration("commit", began);
        match inner.0 {
            Inner::Held(conn) => Some(Held::Pooled(conn)),
            Inner::Raw(raw) => Some(Held::Raw(raw)),
            // Given back to the pool as it is dropped.
            Inner::Pooled(_) => None,
        }
    }

    /// Commits (`keep`) or rolls back, and gives back a held connection
    /// that came through clean, for its writer's next transaction. One
    /// whose `COMMIT` or `ROLLBACK` failed is closed: SQLite's rollback of
    /// whatever it still holds.
    pub(super) async fn end_held(self, keep: bool) -> (AppResult<()>, Option<Held>) {
        let Tx {
            inner,
            _turn,
            began,
        } = self;
        let outcome = if keep { "commit" } else { "rollback" };
        let (ended, held) = match inner.0 {
            Inner::Pooled(tx) => {
                let ended = if keep {
                    tx.commit().await
                } else {
                    tx.rollback().await
                };
                (ended, None)
            }
            Inner::Held(mut conn) => {
                let statement = if keep { "COMMIT" } else { "ROLLBACK" };
                match (&mut *conn).execute(statement).await {
                    Ok(_) => (Ok(()), Some(Held::Pooled(conn))),
                    Err(err) => (Err(err), None),
                }
            }
            Inner::Raw(raw) => {
                let statement = if keep { "COMMIT" } else { "ROLLBACK" };
                match raw.execute(statement) {
                    Ok(()) => (Ok(()), Some(Held::Raw(raw))),
                    Err(err) => (Err(err), None),
                }
            }
        };
        if ended.is_ok() {
            record_duration(outcome, began);
        }
        (ended.map_err(AppError::from), held)
    }
}

fn record_duration(outcome: &'static str, began: std::time::Instant) {
    metrics::histogram!("paydesk_db_transaction_seconds", "outcome" => outcome)
        .record(began.elapsed().as_secs_f64());
}

impl Deref for Tx {
    type Target = Conn;

    fn deref(&self) -> &Conn {
        &self.inner
    }
}

impl DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut Conn {
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
            if let Some(raw) = db.try_downcast_ref::<RawSqliteError>() {
                matches!(raw.extended_code() & 0xff, 5 | 6)
            } else if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
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
