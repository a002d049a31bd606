//! What a transaction's queries run on (`&mut **tx`): a connection of the
//! `Any` driver, or on SQLite the group-commit writer's own connection
//! (`raw_sqlite.rs`), called where the write runs. Both take the same
//! queries and give the same rows, so the library's queries do not know
//! which one they ran on.
//!
//! A statement on the writer's own connection runs on the thread that asks
//! for it: the writer's, for the socket commands (`Db::on_write_thread`), and
//! a job's own thread for the jobs. Other writes (the pay page's, an
//! upload's confirm) run theirs on the thread their handler runs on: for
//! as long as each statement takes, that thread serves nothing else.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use sqlx::any::{AnyArguments, AnyQueryResult, AnyRow, AnyStatement, AnyTypeInfo};
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, Either, Execute, Executor};
use sqlx_core::sql_str::SqlStr;

use super::raw_sqlite::RawConn;

#[derive(Debug)]
pub struct Conn(pub(super) Inner);

#[derive(Debug)]
pub(super) enum Inner {
    /// A transaction of a pool: its connection goes back to the pool when
    /// it ends.
    Pooled(sqlx::Transaction<'static, Any>),
    /// A transaction on a connection its writer keeps from one transaction
    /// to the next (`write_tx::Held`): dropped before it ended, the
    /// connection is closed, which rolls the transaction back. Or a pool's
    /// connection lent for reads (`Conn::from_pool`).
    Held(PoolConnection<Any>),
    /// The same, on the group-commit writer's own SQLite connection.
    Raw(RawConn),
}

impl Conn {
    /// A pool's connection, for reads outside a transaction that share
    /// their code with reads inside one. Dropped, it goes back to the pool.
    pub fn from_pool(conn: PoolConnection<Any>) -> Conn {
        Conn(Inner::Held(conn))
    }

    /// The database's name, as the `Any` driver gives it ("SQLite",
    /// "PostgreSQL").
    pub fn backend_name(&self) -> &str {
        match &self.0 {
            Inner::Pooled(tx) => tx.backend_name(),
            Inner::Held(conn) => conn.backend_name(),
            Inner::Raw(_) => "SQLite",
        }
    }

    /// Which of the two kinds of connection the queries go to.
    fn side(&mut self) -> Side<'_> {
        match &mut self.0 {
            Inner::Pooled(tx) => Side::Any(tx),
            Inner::Held(conn) => Side::Any(conn),
            Inner::Raw(raw) => Side::Raw(raw),
        }
    }
}

enum Side<'a> {
    Any(&'a mut AnyConnection),
    Raw(&'a RawConn),
}

/// The text and the arguments of `query`, for the writer's own connection.
pub(super) fn parts<'q>(
    mut query: impl Execute<'q, Any>,
) -> Result<(SqlStr, Option<AnyArguments>), sqlx::Error> {
    let arguments = query.take_arguments().map_err(sqlx::Error::Encode)?;
    Ok((query.sql(), arguments))
}

impl<'c> Executor<'c> for &'c mut Conn {
    type Database = Any;

    fn fetch_many<'e, 'q: 'e, E>(
        self,
        query: E,
    ) -> BoxStream<'e, Result<Either<AnyQueryResult, AnyRow>, sqlx::Error>>
    where
        'c: 'e,
        E: 'q + Execute<'q, Any>,
    {
        match self.side() {
            Side::Any(conn) => conn.fetch_many(query),
            Side::Raw(raw) => futures_util::stream::once(async move {
                TurnFirst::default().await;
                match parts(query) {
                    Ok((sql, arguments)) => raw.run(sql.as_str(), arguments),
                    Err(err) => vec![Err(err)],
                }
            })
            .flat_map(futures_util::stream::iter)
            .boxed(),
        }
    }

    fn fetch_optional<'e, 'q: 'e, E>(
        self,
        query: E,
    ) -> BoxFuture<'e, Result<Option<AnyRow>, sqlx::Error>>
    where
        'c: 'e,
        E: 'q + Execute<'q, Any>,
    {
        match self.side() {
            Side::Any(conn) => conn.fetch_optional(query),
            Side::Raw(raw) => Box::pin(async move {
                TurnFirst::default().await;
                let (sql, arguments) = parts(query)?;
                Ok(raw.rows(sql.as_str(), arguments)?.into_iter().next())
            }),
        }
    }

    fn prepare_with<'e>(
        self,
        sql: SqlStr,
        parameters: &'e [AnyTypeInfo],
    ) -> BoxFuture<'e, Result<AnyStatement, sqlx::Error>>
    where
        'c: 'e,
    {
        match self.side() {
            Side::Any(conn) => conn.prepare_with(sql, parameters),
            Side::Raw(_) => Box::pin(std::future::ready(Err(unsupported("prepare")))),
        }
    }
}

/// Lets the other tasks of the thread run once before a statement on the
/// writer's own connection, which then runs without a pause: as a round
/// trip to a connection's thread did, a statement gives way. The import
/// plans its next batch while this one's statements run
/// (`jobs::imports`, `tokio::join!`); without this, the batch's statements
/// would all run before the planning even began. The task wakes itself, so
/// it goes to the back of its own thread's queue: no other thread is woken.
#[derive(Default)]
struct TurnFirst {
    taken: bool,
}

impl Future for TurnFirst {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.taken {
            return Poll::Ready(());
        }
        self.taken = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// The library's queries are built and run, never prepared apart or
/// described: the writer's own connection does not do either.
fn unsupported(what: &str) -> sqlx::Error {
    sqlx::Error::Protocol(format!("the writer's SQLite connection cannot {what}"))
}
