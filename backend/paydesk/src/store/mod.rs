//! The database: one pool over SQLite or PostgreSQL, chosen by URL, with the
//! migrations of that database embedded. Every query of merchant data takes
//! the merchant id and the mode.

pub mod accounts;
pub mod api_token_failures;
pub mod api_tokens;
pub mod bank_accounts;
mod batch;
pub mod bulk;
pub mod business;
pub mod cards;
pub mod clocks;
pub mod conn;
pub mod customers;
pub mod e_mandate_signings;
pub mod e_mandates;
pub mod events;
mod group_commit;
pub mod history;
pub mod history_reads;
pub mod import_batches;
pub mod import_duplicates;
pub mod imports;
pub mod insights;
pub mod ledger;
pub mod links;
pub mod mail;
pub mod mail_quotas;
pub mod mandates;
mod migrations;
pub mod orders;
pub mod ownership;
pub mod pay_attempts;
pub mod pay_pages;
pub mod payment_methods;
pub mod payments;
pub mod payouts;
mod raw_sqlite;
mod readiness;
pub mod retention;
pub mod roles;
pub mod scheduler_leases;
pub mod search;
pub mod secrets;
pub mod sessions;
pub mod signin_failures;
pub mod sql;
pub mod stream;
pub mod team;
pub mod transactions;
pub mod users;
mod versions;
pub mod webhooks;
mod write_tx;

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, PoisonError};
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Connection, Executor};
use tokio::sync::OwnedMutexGuard;
use tokio::time::Instant;

use crate::error::{AppError, AppResult};
pub use readiness::NotReady;
use write_tx::Held;
pub use write_tx::{Tx, is_busy};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The end of a `SELECT` that claims queued work: on PostgreSQL,
    /// `FOR UPDATE SKIP LOCKED`, so workers of every node claim side by side
    /// and never take the same row; SQLite has one writer, so nothing.
    pub fn skip_locked(self) -> &'static str {
        match self {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        }
    }
}

/// How long a writer waits for its turn before it is answered `busy`,
/// unless the configuration says otherwise.
pub const DEFAULT_WRITE_WAIT: Duration = Duration::from_secs(30);

/// SQLite: how long one `BEGIN IMMEDIATE` lets SQLite's busy handler wait
/// for a writer outside this process before `begin_write` looks at its
/// deadline and tries again. Short, so the deadline is kept to about this.
const SQLITE_BEGIN_TIMEOUT: Duration = Duration::from_secs(1);

/// SQLite: a reader waits on a lock only while a crashed writer's log is
/// recovered; long enough for that.
const SQLITE_READ_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Clone)]
pub struct Db {
    /// For reads. On SQLite its connections are `query_only`: a write on it
    /// fails at once instead of slipping past the write queue.
    pub pool: AnyPool,
    /// Where write transactions begin (`begin_write`); on PostgreSQL the
    /// same pool as `pool`.
    writer: AnyPool,
    pub backend: Backend,
    /// SQLite: how a writer of this process gets the file's turn.
    sqlite_turn: Option<SqliteTurn>,
    /// SQLite: the writer that commits stream writes in groups, started
    /// with the first of them (`group_commit.rs`).
    group: Arc<std::sync::OnceLock<group_commit::GroupCommit>>,
}

/// One queue per SQLite file, shared by every pool of the process (the
/// import job, the scheduler and the mail job have their own). A writer
/// holds its place until its transaction ends: SQLite's own wait for the
/// lock sleeps and polls, up to 100 ms apart, so writers that polled against
/// each other would let one that commits and begins again at once (an
/// import, batch after batch) keep the lock from the others for as long as
/// it runs. Queued in arrival order, each waits only for the transactions
/// that were there first.
static SQLITE_WRITE_QUEUES: LazyLock<
    std::sync::Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
> = LazyLock::new(Default::default);

/// SQLite: the file's writer pool, behind the process's queue for the file.
#[derive(Clone)]
pub(crate) struct SqliteTurn {
    writer: AnyPool,
    /// Where this file's writers of this process wait their turn.
    queue: Arc<tokio::sync::Mutex<()>>,
    /// How long a writer waits for its turn before it is answered `busy`.
    write_wait: Duration,
    /// The database file, which the group-commit writer opens a connection
    /// of its own to (`raw_sqlite.rs`) and readiness checks is still there
    /// (a pool that reconnected to a vanished file would create an empty
    /// one); none in memory.
    file: Option<std::path::PathBuf>,
    /// As the pools' connections: whether commits copy the log into the file.
    checkpoint_on_commit: bool,
}

impl SqliteTurn {
    /// Waits for the file's turn, then takes the write lock up front
    /// (`BEGIN IMMEDIATE`: a transaction that began as a read and then
    /// writes can fail at once, without waiting, when another writer got in
    /// between), and keeps the turn until the transaction ends. Waiting
    /// longer than the write wait, for the turn or for a writer outside this
    /// process, answers `busy`.
    async fn begin(&self) -> AppResult<Tx> {
        let (deadline, turn) = self.take_turn().await?;
        loop {
            match self.writer.begin_with("BEGIN IMMEDIATE").await {
                Ok(tx) => return Ok(Tx::new(tx, Some(turn))),
                Err(err) => self.again_or_answer(err, deadline)?,
            }
        }
    }

    /// `begin`, on a writer's own connection (`held`; one of the pool when
    /// it has none), which it keeps between transactions (`write_tx::Held`),
    /// and `then` run in the same round trip, whose rows it answers. A
    /// connection that failed for any reason but a lock held elsewhere is
    /// closed (which rolls back whatever began), and the next transaction
    /// opens another.
    async fn begin_held(
        &self,
        held: &mut Option<Held>,
        then: &sql::Sql,
    ) -> AppResult<(Tx, Vec<AnyRow>)> {
        let (deadline, turn) = self.take_turn().await?;
        let mut conn = match (held.take(), &self.file) {
            (Some(conn), _) => conn,
            (None, Some(file)) => Held::Raw(raw_sqlite::RawConn::open(
                file,
                &sqlite_pragma_text(SQLITE_BEGIN_TIMEOUT, self.checkpoint_on_commit),
            )?),
            (None, None) => Held::acquire(&self.writer).await?,
        };
        loop {
            match conn.begin_immediate(then).await {
                Ok(rows) => return Ok((conn.into_tx(Some(turn)), rows)),
                Err(err) => {
                    let locked = is_busy(&err);
                    if let Err(answer) = self.again_or_answer(err, deadline) {
                        if locked {
                            *held = Some(conn);
                        }
                        return Err(answer);
                    }
                }
            }
        }
    }

    /// After a failed `BEGIN`: nothing, to try again (the file is locked
    /// from outside and the write wait is not over), or the answer.
    fn again_or_answer(&self, err: sqlx::Error, deadline: Instant) -> AppResult<()> {
        if !is_busy(&err) {
            return Err(err.into());
        }
        if Instant::now() < deadline {
            tracing::debug!(error = %err, "the database is locked from outside: trying again");
            return Ok(());
        }
        tracing::warn!(error = %err, wait = ?self.write_wait, "the database stayed locked: answered busy");
        Err(write_tx::busy())
    }

    /// The file's turn for this process, within the write wait.
    async fn take_turn(&self) -> AppResult<(Instant, OwnedMutexGuard<()>)> {
        let deadline = Instant::now() + self.write_wait;
        let turn = tokio::time::timeout_at(deadline, Arc::clone(&self.queue).lock_owned())
            .await
            .map_err(|_| {
                tracing::warn!(wait = ?self.write_wait, "a writer waited out its turn: answered busy");
                write_tx::busy()
            })?;
        Ok((deadline, turn))
    }
}

impl Db {
    pub async fn connect(url: &str) -> AppResult<Db> {
        Db::open(url, true, DEFAULT_WRITE_WAIT).await
    }

    /// As `connect`, with writers answered `busy` after `write_wait`.
    pub async fn connect_waiting(url: &str, write_wait: Duration) -> AppResult<Db> {
        Db::open(url, true, write_wait).await
    }

    /// For a writer of many batches (the import job): on SQLite its commits
    /// leave copying the write-ahead log into the database to
    /// `checkpoint_passive`, which it runs beside its next batch, instead
    /// of doing it inside every few commits.
    pub async fn connect_bulk_writer(url: &str) -> AppResult<Db> {
        Db::open(url, false, DEFAULT_WRITE_WAIT).await
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

    async fn open(url: &str, checkpoint_on_commit: bool, write_wait: Duration) -> AppResult<Db> {
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
            Backend::Sqlite => sqlite_url_creating_file(url).await?,
            Backend::Postgres => url.to_string(),
        };
        let options: AnyConnectOptions = url.parse()?;
        let (pool, writer, queue) = match backend {
            Backend::Postgres => {
                let pool = pool_options(16, Backend::Postgres)
                    .connect_with(options)
                    .await?;
                (pool.clone(), pool, None)
            }
            Backend::Sqlite => {
                let queue = {
                    let mut queues = SQLITE_WRITE_QUEUES
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner);
                    Arc::clone(queues.entry(url.clone()).or_default())
                };
                // The writer comes first: it is the one that may turn the
                // file to WAL, which needs the file to itself.
                // One transaction at a time holds the file's turn. The
                // group-commit writer keeps one connection as its own; of
                // the other two, one lets the next writer begin while the
                // last one's goes back to the pool.
                let writer = pool_options(3, Backend::Sqlite)
                    .after_connect(move |conn, _| {
                        Box::pin(async move {
                            sqlite_pragmas(conn, SQLITE_BEGIN_TIMEOUT, checkpoint_on_commit).await
                        })
                    })
                    .connect_with(options.clone())
                    .await?;
                // SQLite has one writer at a time anyway; a few readers beside it suffice.
                let pool = pool_options(8, Backend::Sqlite)
                    .after_connect(move |conn, _| {
                        Box::pin(async move {
                            sqlite_pragmas(conn, SQLITE_READ_TIMEOUT, checkpoint_on_commit).await?;
                            conn.execute("PRAGMA query_only = ON").await?;
                            Ok(())
                        })
                    })
                    .connect_with(options)
                    .await?;
                (pool, writer, Some(queue))
            }
        };
        let sqlite_turn = queue.map(|queue| SqliteTurn {
            writer: writer.clone(),
            queue,
            write_wait,
            file: sqlite_file_of(&url),
            checkpoint_on_commit,
        });
        Ok(Db {
            pool,
            writer,
            backend,
            sqlite_turn,
            group: Arc::default(),
        })
    }

    /// SQLite: the database file; none in memory or on PostgreSQL.
    fn sqlite_file(&self) -> Option<&std::path::Path> {
        self.sqlite_turn.as_ref()?.file.as_deref()
    }

    pub async fn migrate(&self) -> AppResult<()> {
        // Migrations write, so they take the file's turn like any writer.
        let _turn = match &self.sqlite_turn {
            Some(turn) => Some(turn.queue.lock().await),
            None => None,
        };
        self.migrator().run(&self.writer).await?;
        Ok(())
    }

    /// The migrations embedded for this database.
    fn migrator(&self) -> &'static sqlx::migrate::Migrator {
        match self.backend {
            Backend::Sqlite => &migrations::SQLITE_MIGRATIONS,
            Backend::Postgres => &migrations::POSTGRES_MIGRATIONS,
        }
    }

    /// A write transaction. On SQLite it waits for the file's turn and
    /// keeps it until it ends (`SqliteTurn::begin`); on PostgreSQL it is a
    /// transaction of the pool.
    pub async fn begin_write(&self) -> AppResult<Tx> {
        match &self.sqlite_turn {
            Some(turn) => turn.begin().await,
            None => Ok(Tx::new(self.writer.begin().await?, None)),
        }
    }

    /// SQLite: the group-commit writer of this database, started with the
    /// first stream write. None on PostgreSQL, whose writes of different
    /// merchants commit in parallel.
    fn group_commit(&self) -> AppResult<Option<&group_commit::GroupCommit>> {
        let Some(turn) = &self.sqlite_turn else {
            return Ok(None);
        };
        if self.group.get().is_none() {
            // Two first writes at once may both start one: the one not kept
            // stops as soon as its sender is dropped here.
            let _ = self
                .group
                .set(group_commit::GroupCommit::start(turn.clone())?);
        }
        Ok(self.group.get())
    }

    /// Runs a piece of work that writes a stream (`stream::write`) where its
    /// write is cheapest: on SQLite on the group-commit writer's thread
    /// (`GroupCommit::run_here`), on PostgreSQL right here.
    pub async fn on_write_thread<T: Send + 'static>(
        &self,
        work: impl Future<Output = AppResult<T>> + Send + 'static,
    ) -> AppResult<T> {
        match self.group_commit()? {
            Some(group) => group.run_here(work).await,
            None => work.await,
        }
    }

    /// SQLite: stream writes waiting for a place in a group (none on
    /// PostgreSQL). Lets a test know its writes are all queued.
    pub fn writes_waiting_for_group(&self) -> usize {
        self.group.get().map_or(0, |group| group.waiting())
    }

    /// Connections of the read and the write pool: (pool, open, idle). On
    /// PostgreSQL both are one pool, reported once.
    pub fn pool_use(&self) -> Vec<(&'static str, u32, usize)> {
        let mut pools = vec![("read", self.pool.size(), self.pool.num_idle())];
        if self.backend == Backend::Sqlite {
            pools.push(("write", self.writer.size(), self.writer.num_idle()));
        }
        pools
    }

    /// A transaction that only reads, for reads that must agree with each
    /// other. It takes no turn.
    pub async fn begin_read(&self) -> AppResult<Tx> {
        Ok(Tx::new(self.pool.begin().await?, None))
    }
}

fn pool_options(max_connections: u32, backend: Backend) -> AnyPoolOptions {
    AnyPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
        // A SQLite connection is a handle on a local file: pinging it
        // before each use costs a round trip to its thread on every
        // transaction and finds nothing. A server's connection can drop.
        .test_before_acquire(backend == Backend::Postgres)
}

/// Sets a pool connection's pragmas (`sqlite_pragma_text`).
async fn sqlite_pragmas(
    conn: &mut sqlx::AnyConnection,
    busy_timeout: Duration,
    checkpoint_on_commit: bool,
) -> Result<(), sqlx::Error> {
    let pragmas = sqlite_pragma_text(busy_timeout, checkpoint_on_commit);
    conn.execute(sqlx::AssertSqlSafe(pragmas)).await?;
    Ok(())
}

/// The pragmas of every connection to a SQLite file, the pools' and the
/// group-commit writer's own: WAL lets readers run beside the writer; FULL
/// sync because this is money. Each write of a group keeps its own
/// savepoint (`group_commit.rs`), whose journal of the pages it touched
/// outgrows SQLite's in-memory spill limit: on a temporary file, every
/// group would create, write and delete one, so temporary storage (tables
/// and sorts too) stays in memory. Deleted and overwritten content is
/// zeroed (`secure_delete`): a row that once held a secret (a session, an
/// emptied outbox body) leaves nothing readable in the file's free pages.
fn sqlite_pragma_text(busy_timeout: Duration, checkpoint_on_commit: bool) -> String {
    let mut pragmas = format!(
        "PRAGMA busy_timeout = {}; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
         PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY; PRAGMA secure_delete = ON;",
        busy_timeout.as_millis()
    );
    if !checkpoint_on_commit {
        pragmas.push_str(" PRAGMA wal_autocheckpoint = 0;");
    }
    pragmas
}

/// The file of a `sqlite://` URL; none for an in-memory database.
fn sqlite_file_of(url: &str) -> Option<std::path::PathBuf> {
    let rest = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    let path = rest.split_once('?').map_or(rest, |(path, _)| path);
    (!path.is_empty() && path != ":memory:").then(|| std::path::PathBuf::from(path))
}

/// Creates the SQLite database file if it is missing (and its folder), then
/// answers the URL the pools open it with: `mode=rw`, never `rwc`. A file
/// that vanishes while the server runs (moved, a volume unmounted) must not
/// be replaced by an empty database the next time a pool connects: its
/// connections would stay on that empty file after the real one is back.
async fn sqlite_url_creating_file(url: &str) -> AppResult<String> {
    let creating = sqlite_url_creating_folder(url)?;
    if !creating.contains("mode=rwc") || sqlite_file_of(&creating).is_none() {
        return Ok(creating);
    }
    let options: AnyConnectOptions = creating.parse()?;
    sqlx::AnyConnection::connect_with(&options)
        .await?
        .close()
        .await?;
    Ok(creating.replace("mode=rwc", "mode=rw"))
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
