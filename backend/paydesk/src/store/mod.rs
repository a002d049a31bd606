//! The database: one pool over SQLite or PostgreSQL, chosen by URL, with the
//! migrations of that database embedded. Every query of merchant data takes
//! the merchant id and the mode.

pub mod accounts;
pub mod bank_accounts;
pub mod bulk;
pub mod business;
pub mod cards;
pub mod clocks;
pub mod customers;
pub mod events;
pub mod import_batches;
pub mod imports;
pub mod links;
pub mod mail;
pub mod mail_quotas;
pub mod mandates;
pub mod orders;
pub mod pay_attempts;
pub mod pay_pages;
pub mod payment_methods;
pub mod payments;
pub mod secrets;
pub mod sessions;
pub mod signin_failures;
pub mod sql;
pub mod stream;
pub mod transactions;
pub mod users;

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, PoisonError};
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};

use crate::error::{AppError, AppResult};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Db {
    pub pool: AnyPool,
    pub backend: Backend,
    /// SQLite: where this file's writers of this process wait their turn.
    write_queue: Option<Arc<tokio::sync::Mutex<()>>>,
}

/// One queue per SQLite file, shared by every pool of the process (the
/// import job has its own). A writer waiting for SQLite's lock sleeps and
/// polls, up to 100 ms apart, so a writer that commits and begins again at
/// once (an import, batch after batch) would keep the lock from the others
/// for as long as it runs; queued in arrival order, each waits at most for
/// the transactions that were there first.
static SQLITE_WRITE_QUEUES: LazyLock<
    std::sync::Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
> = LazyLock::new(Default::default);

pub type Tx = sqlx::Transaction<'static, sqlx::Any>;

impl Db {
    pub async fn connect(url: &str) -> AppResult<Db> {
        Db::open(url, true).await
    }

    /// For a writer of many batches (the import job): on SQLite its commits
    /// leave copying the write-ahead log into the database to
    /// `checkpoint_passive`, which it runs beside its next batch, instead
    /// of doing it inside every few commits.
    pub async fn connect_bulk_writer(url: &str) -> AppResult<Db> {
        Db::open(url, false).await
    }

    /// SQLite: copies what it can of the write-ahead log into the database
    /// without waiting for, or holding up, readers and the writer.
    pub async fn checkpoint_passive(&self) -> AppResult<()> {
        if self.backend == Backend::Sqlite {
            sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    async fn open(url: &str, checkpoint_on_commit: bool) -> AppResult<Db> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(AppError::Internal(format!(
                "DATABASE_URL: unsupported scheme in {url:?}"
            )));
        };
        let url = match backend {
            Backend::Sqlite => sqlite_url_creating_folder(url)?,
            Backend::Postgres => url.to_string(),
        };
        let write_queue = (backend == Backend::Sqlite).then(|| {
            let mut queues = SQLITE_WRITE_QUEUES
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            Arc::clone(queues.entry(url.clone()).or_default())
        });
        let options: AnyConnectOptions = url.parse()?;
        let pool = AnyPoolOptions::new()
            // SQLite has one writer at a time anyway; a few readers beside it suffice.
            .max_connections(match backend {
                Backend::Sqlite => 8,
                Backend::Postgres => 16,
            })
            .acquire_timeout(Duration::from_secs(10))
            // A SQLite connection is a handle on a local file: pinging it
            // before each use costs a round trip to its thread on every
            // transaction and finds nothing. A server's connection can drop.
            .test_before_acquire(backend == Backend::Postgres)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers run beside the writer; FULL sync because this is money;
                        // the busy timeout makes concurrent writers queue instead of failing.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = FULL").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        if !checkpoint_on_commit {
                            conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                        }
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        Ok(Db {
            pool,
            backend,
            write_queue,
        })
    }

    pub async fn migrate(&self) -> AppResult<()> {
        match self.backend {
            Backend::Sqlite => {
                sqlx::migrate!("../../migrations/sqlite")
                    .run(&self.pool)
                    .await?
            }
            Backend::Postgres => {
                sqlx::migrate!("../../migrations/postgres")
                    .run(&self.pool)
                    .await?
            }
        }
        Ok(())
    }

    /// A write transaction. On SQLite it takes the write lock up front
    /// (`BEGIN IMMEDIATE`), so two writers queue on the busy timeout instead of
    /// failing when one upgrades a read lock. Writers of one file wait in
    /// the file's queue first, and leave it once they hold the lock.
    pub async fn begin_write(&self) -> AppResult<Tx> {
        let tx = match self.backend {
            Backend::Sqlite => {
                let _turn = match &self.write_queue {
                    Some(queue) => Some(queue.lock().await),
                    None => None,
                };
                self.pool.begin_with("BEGIN IMMEDIATE").await?
            }
            Backend::Postgres => self.pool.begin().await?,
        };
        Ok(tx)
    }
}

/// `sqlite://data/x.db` → the same URL with `mode=rwc`, after creating `data/`.
fn sqlite_url_creating_folder(url: &str) -> AppResult<String> {
    let rest = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if path != ":memory:"
        && let Some(parent) = std::path::Path::new(path).parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::create_dir_all(parent).map_err(|e| {
            AppError::Internal(format!("DATABASE_URL: cannot create {parent:?}: {e}"))
        })?;
    }
    let query = if query.contains("mode=") {
        query.to_string()
    } else if query.is_empty() {
        "mode=rwc".into()
    } else {
        format!("{query}&mode=rwc")
    };
    Ok(format!("sqlite://{path}?{query}"))
}
