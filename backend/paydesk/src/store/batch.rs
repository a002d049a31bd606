//! The statements of a stream write whose results nobody reads back within
//! it: the records' versions, the history rows, the webhook deliveries and
//! the event itself. They are collected while the write runs and sent at
//! its end. On SQLite they go in one round trip to the connection's thread:
//! the writes of the file run one after another, so each round trip of one
//! write is time every other write waits. PostgreSQL takes one prepared
//! statement at a time, and commits different merchants' writes in
//! parallel: there they run one by one.

use sqlx::Executor;

use super::sql::Sql;
use super::{Backend, Tx};
use crate::error::AppResult;

#[derive(Default)]
pub(super) struct Batch {
    statements: Vec<Sql>,
}

impl Batch {
    pub(super) fn push(&mut self, statement: Sql) {
        self.statements.push(statement);
    }

    /// Runs every statement, in the order pushed.
    pub(super) async fn run(self, tx: &mut Tx, backend: Backend) -> AppResult<()> {
        if backend == Backend::Sqlite {
            if let Some(all) = self.into_one() {
                (&mut **tx).execute(all.query()).await?;
            }
            return Ok(());
        }
        for next in self.statements {
            (&mut **tx).execute(next.query()).await?;
        }
        Ok(())
    }

    /// Every statement in one text, in the order pushed (SQLite runs the
    /// statements of one text in turn); none when there are none.
    pub(super) fn into_one(self) -> Option<Sql> {
        let mut statements = self.statements.into_iter();
        let mut first = statements.next()?;
        for next in statements {
            first.then(next);
        }
        Some(first)
    }
}
