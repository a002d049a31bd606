//! Whether this database can serve: reachable, and every migration this
//! build carries applied. Asked by load balancers every few seconds, so it
//! is one small query on the read pool, under a short deadline.

use std::collections::HashSet;
use std::time::Duration;

use sqlx::Row;

use super::Db;

/// A probe that waits longer than this is answered "unreachable": a load
/// balancer's probe gives up after a few seconds, and a pool that cannot
/// connect would otherwise wait out its whole acquire timeout.
const PROBE_DEADLINE: Duration = Duration::from_secs(3);

/// Why the database cannot serve. Each says what an operator looks at; none
/// carries the database's address or its error text (which may name it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotReady {
    /// SQLite: the database file is no longer where the server opened it.
    FileMissing,
    /// No answer, or an error, within the probe's deadline.
    Unreachable,
    /// Migrations this build carries are not recorded as applied.
    MigrationsPending(Vec<i64>),
}

impl NotReady {
    /// A stable code for probes and dashboards.
    pub fn code(&self) -> &'static str {
        match self {
            NotReady::FileMissing => "database_file_missing",
            NotReady::Unreachable => "database_unreachable",
            NotReady::MigrationsPending(_) => "migrations_pending",
        }
    }
}

impl std::fmt::Display for NotReady {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotReady::FileMissing => write!(f, "the database file is missing"),
            NotReady::Unreachable => write!(f, "the database does not answer"),
            NotReady::MigrationsPending(versions) => {
                let versions: Vec<String> = versions.iter().map(i64::to_string).collect();
                write!(f, "migrations not applied: {}", versions.join(", "))
            }
        }
    }
}

impl Db {
    /// Ready when the database answers and records every migration of
    /// this build as applied.
    pub async fn readiness(&self) -> Result<(), NotReady> {
        // Looked at before the pool is touched: a connection opened on a
        // vanished file would create an empty database in its place.
        if let Some(file) = self.sqlite_file()
            && !file.is_file()
        {
            return Err(NotReady::FileMissing);
        }
        let query = format!(
            "SELECT version FROM {} WHERE success",
            self.migrator().table_name
        );
        let applied = tokio::time::timeout(
            PROBE_DEADLINE,
            sqlx::query(sqlx::AssertSqlSafe(query)).fetch_all(&self.pool),
        )
        .await;
        let rows = match applied {
            Ok(Ok(rows)) => rows,
            Ok(Err(err)) => {
                tracing::warn!(error = %err, "readiness: the database answered with an error");
                return Err(NotReady::Unreachable);
            }
            Err(_) => {
                tracing::warn!(deadline = ?PROBE_DEADLINE, "readiness: the database did not answer in time");
                return Err(NotReady::Unreachable);
            }
        };
        let mut applied = HashSet::new();
        for row in rows {
            match row.try_get::<i64, _>("version") {
                Ok(version) => applied.insert(version),
                Err(err) => {
                    tracing::warn!(error = %err, "readiness: unreadable migration record");
                    return Err(NotReady::Unreachable);
                }
            };
        }
        let pending: Vec<i64> = self
            .migrator()
            .iter()
            .filter(|m| !m.migration_type.is_down_migration() && !applied.contains(&m.version))
            .map(|m| m.version)
            .collect();
        if pending.is_empty() {
            Ok(())
        } else {
            Err(NotReady::MigrationsPending(pending))
        }
    }
}
