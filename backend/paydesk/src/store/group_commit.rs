//! Group commit, for SQLite's one writer. Writes of merchants' streams
//! (`stream::write`) that arrive while the file is busy are committed together
//! in one transaction: one `BEGIN IMMEDIATE`, one `COMMIT` (one sync of the
//! log) and one pass of the file's turn for the whole group, instead of one
//! each. Each write still takes its own `seq`, runs its own work and gets its
//! own answer, under a savepoint of its own: a write that fails, or changed
//! nothing, is rolled back to its savepoint and leaves the others in. A
//! write's last statements, which it does not read back (its event and
//! what travels with it), run in the writer's next round trip, with the next
//! write's opening or with the `COMMIT`: one hop fewer per write. What every
//! write reads before its work (who caused it, the stream's webhook
//! endpoints) runs in its opening: one read fewer on the read pool.
//!
//! The writer is a task on a thread of its own, holding the group's
//! transaction on a SQLite connection of its own (`raw_sqlite.rs`), whose
//! statements run on the thread that asks for them: no hop to a
//! connection's thread and back for each (a database in memory, which only
//! the pool's connections share, keeps a pool connection and its hops). It
//! lends the transaction to one write at a time, in arrival order: the
//! write's own task runs its work on it (the work borrows from its
//! caller, so it cannot be sent to another task) and hands it back. Every
//! write of a group is answered only after the group's `COMMIT`, so an answer
//! still means durable, and deltas still go out only after the commit.
//!
//! PostgreSQL has no single writer: writes of different merchants commit in
//! parallel on the pool, each in its own transaction, as before.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use sqlx::any::AnyRow;
use sqlx::{Executor, Row};
use tokio::sync::{mpsc, oneshot};

use super::sql::Sql;
use super::stream::{self, StreamKey};
use super::write_tx::Held;
use super::{SqliteTurn, Tx, write_tx};
use crate::error::{AppError, AppResult};

/// At most this many writes share one transaction, so the first of a group
/// waits for at most this many others' work before its commit.
const GROUP_LIMIT: usize = 64;

/// A write's savepoint, the first of a group's.
const SAVEPOINT_FIRST: &str = "SAVEPOINT member";
/// The same, releasing the previous write's savepoint first.
const SAVEPOINT_AFTER_ANOTHER: &str = "RELEASE SAVEPOINT member; SAVEPOINT member";

/// The group's verdict, shared by its members.
type Verdict = Result<(), Arc<AppError>>;

/// Where a database's stream writes join the next group.
pub(super) struct GroupCommit {
    requests: mpsc::UnboundedSender<Join>,
    /// The writer's runtime, where `Db::on_write_thread` runs whole writes.
    runtime: tokio::runtime::Handle,
    /// Writes asked for a place and not yet given one (or refused).
    waiting: Arc<AtomicUsize>,
    write_wait: Duration,
}

struct Join {
    /// The stream whose next `seq` the write takes.
    key: StreamKey,
    /// What the write reads in its opening (`GroupCommit::join`).
    reads: Sql,
    lend: oneshot::Sender<Lend>,
}

enum Lend {
    Turn(Member),
    Refused(AppError),
}

/// A write's place in a group: the group's transaction, under the write's
/// own savepoint, lent to it until it gives it back.
pub(super) struct Member {
    tx: Option<Tx>,
    /// The stream's next `seq`, taken with the savepoint.
    seq: u64,
    /// The rows its opening's reads returned.
    read: Vec<AnyRow>,
    back: Option<oneshot::Sender<Returned>>,
    verdict: Option<oneshot::Receiver<Verdict>>,
}

struct Returned {
    tx: Tx,
    ending: Ending,
}

/// How a write gives its place back.
pub(super) enum Ending {
    /// What it did stays in the group. Its rows (statements whose results
    /// it does not read: its event, history, deliveries) run at the start
    /// of the writer's next round trip, inside its savepoint still: with
    /// the next write's opening, or with the group's `COMMIT`.
    Keep(Option<Sql>),
    /// It failed or changed nothing: rolled back to its savepoint.
    RollBack,
}

/// A member's way to hear the verdict, and what failed of its own after
/// it gave the transaction back (its rows), if anything did.
struct Answer {
    to: oneshot::Sender<Verdict>,
    failed: Option<Arc<AppError>>,
}

/// How a group ended: its transaction (none if a write lost it), its
/// members' answers, the last kept write's rows not run yet, and what
/// broke the group, if anything did.
struct GroupEnd {
    tx: Option<Tx>,
    answers: Vec<Answer>,
    rows: Option<Sql>,
    failure: Option<Arc<AppError>>,
}

impl GroupCommit {
    /// Starts the writer on a thread of its own, with a runtime of its own:
    /// it outlives whichever runtime first wrote (a test's, an actix
    /// worker's), and stops when the last `Db` sharing it is dropped.
    pub(super) fn start(turn: SqliteTurn) -> AppResult<GroupCommit> {
        let (requests, inbox) = mpsc::unbounded_channel();
        let waiting = Arc::new(AtomicUsize::new(0));
        let write_wait = turn.write_wait;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| AppError::Internal(format!("group commit: no runtime: {e}")))?;
        let counter = Arc::clone(&waiting);
        let handle = runtime.handle().clone();
        std::thread::Builder::new()
            .name("group-commit".into())
            .spawn(move || runtime.block_on(run(turn, inbox, counter)))
            .map_err(|e| AppError::Internal(format!("group commit: no thread: {e}")))?;
        Ok(GroupCommit {
            requests,
            runtime: handle,
            waiting,
            write_wait,
        })
    }

    /// Waits for a place in the next group, with the next `seq` of `key`
    /// taken. A write that gets none within the write wait is answered
    /// `busy`, as `begin_write` answers. `reads` run in the same round trip
    /// as the savepoint and the `seq`, in the group's transaction (so they
    /// see the writes before this one), on the writer's connection, whose
    /// pages are warm: their rows are the member's `read`. On the read pool
    /// they would cost a round trip to a reader's thread, the pool's ping,
    /// and a reader's page cache, dropped whenever the file changed.
    pub(super) async fn join(&self, key: &StreamKey, reads: Sql) -> AppResult<Member> {
        let (lend, lent) = oneshot::channel();
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let join = Join {
            key: key.clone(),
            reads,
            lend,
        };
        if self.requests.send(join).is_err() {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(stopped());
        }
        match tokio::time::timeout(self.write_wait, lent).await {
            Ok(Ok(Lend::Turn(member))) => Ok(member),
            Ok(Ok(Lend::Refused(err))) => Err(err),
            Ok(Err(_)) => Err(stopped()),
            Err(_) => {
                tracing::warn!(wait = ?self.write_wait, "a write waited out its group: answered busy");
                Err(write_tx::busy())
            }
        }
    }

    /// Runs `work` as a task on the writer's own thread. A write run there
    /// is lent the group's transaction without crossing threads, and its
    /// statements' answers wake a thread that does nothing else, instead of
    /// a socket worker busy sending deltas.
    pub(super) async fn run_here<T: Send + 'static>(
        &self,
        work: impl Future<Output = AppResult<T>> + Send + 'static,
    ) -> AppResult<T> {
        match self.runtime.spawn(work).await {
            Ok(done) => done,
            // The panic hook has reported it; the caller gets an answer.
            Err(err) if err.is_panic() => Err(AppError::Internal("a write panicked".into())),
            Err(_) => Err(stopped()),
        }
    }

    /// Writes waiting for a place in a group.
    pub(super) fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }
}

impl Member {
    /// The `seq` this write's event takes.
    pub(super) fn seq(&self) -> u64 {
        self.seq
    }

    /// The rows the reads of its opening returned (once).
    pub(super) fn take_read(&mut self) -> Vec<AnyRow> {
        std::mem::take(&mut self.read)
    }

    /// The group's transaction, inside this write's savepoint.
    pub(super) fn tx(&mut self) -> AppResult<&mut Tx> {
        self.tx.as_mut().ok_or_else(|| {
            AppError::Internal("group commit: the transaction was given back".into())
        })
    }

    /// Gives the transaction back (see `Ending`) and waits for the group's
    /// commit. A write whose rows failed hears their error.
    pub(super) async fn finish(mut self, ending: Ending) -> AppResult<()> {
        self.give_back(ending);
        let Some(verdict) = self.verdict.take() else {
            return Err(stopped());
        };
        match verdict.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(err)) => Err(retell(&err)),
            Err(_) => Err(stopped()),
        }
    }

    fn give_back(&mut self, ending: Ending) {
        if let (Some(tx), Some(back)) = (self.tx.take(), self.back.take()) {
            // The writer is waiting on the other end until the group ends.
            let _ = back.send(Returned { tx, ending });
        }
    }

    /// The transaction of a member that was never handed over.
    fn reclaim(mut self) -> Option<Tx> {
        self.back = None;
        self.tx.take()
    }
}

impl Drop for Member {
    /// A write dropped before it finished (its caller gave up) is rolled back
    /// to its savepoint; the rest of its group goes on.
    fn drop(&mut self) {
        self.give_back(Ending::RollBack);
    }
}

/// The writer: takes the first waiting write, begins, lends the transaction
/// to it and to every write that queued meanwhile (up to the limit), commits,
/// and answers them all.
async fn run(
    turn: SqliteTurn,
    mut inbox: mpsc::UnboundedReceiver<Join>,
    waiting: Arc<AtomicUsize>,
) {
    // Its own connection, kept from group to group.
    let mut held = None;
    while let Some(first) = inbox.recv().await {
        // The transaction begins in one round trip with the first write's
        // opening.
        let (tx, first_open) = match turn.begin_held(&mut held, &opening(&first, false)).await {
            Ok((tx, rows)) => (tx, split_opening(rows)),
            Err(err) => {
                // Everyone queued now waited as long: they get the same answer.
                refuse(first, &err, &waiting);
                while let Ok(next) = inbox.try_recv() {
                    refuse(next, &err, &waiting);
                }
                continue;
            }
        };
        let GroupEnd {
            tx,
            mut answers,
            rows,
            failure,
        } = run_group(tx, (first, first_open), &mut inbox, &waiting).await;
        let verdict: Verdict = match (failure, tx) {
            (None, Some(tx)) => {
                let (committed, back) = commit(tx, rows, &mut answers).await;
                held = back;
                committed.map_err(Arc::new)
            }
            (Some(failure), tx) => {
                if let Some(tx) = tx {
                    let (rolled_back, back) = tx.end_held(false).await;
                    held = back;
                    if let Err(err) = rolled_back {
                        tracing::warn!(error = %err, "a failed group did not roll back cleanly");
                    }
                }
                Err(failure)
            }
            (None, None) => Err(Arc::new(stopped())),
        };
        if let Err(err) = &verdict {
            tracing::error!(error = %err, writes = answers.len(), "a group of writes was rolled back");
        }
        metrics::histogram!("paydesk_db_group_size").record(answers.len() as f64);
        for Answer { to, failed } in answers {
            // A write whose caller went away needs no answer.
            let _ = to.send(failed.map_or_else(|| verdict.clone(), Err));
        }
    }
    if let Some(held) = held {
        held.close().await;
    }
}

/// Lends the transaction to each write of the group in turn.
async fn run_group(
    tx: Tx,
    (first, first_open): (Join, Opened),
    inbox: &mut mpsc::UnboundedReceiver<Join>,
    waiting: &AtomicUsize,
) -> GroupEnd {
    let mut end = GroupEnd {
        tx: Some(tx),
        answers: Vec::new(),
        rows: None,
        failure: None,
    };
    let mut savepoint_open = false;
    let mut first_open = Some(first_open);
    let mut next = Some(first);
    while let Some(join) = next.take() {
        waiting.fetch_sub(1, Ordering::SeqCst);
        let Some(mut current) = end.tx.take() else {
            break;
        };
        // On a pool connection every statement of the group is a hop to the
        // connection's thread, and the group's writes run one after another:
        // one round trip runs the last write's rows, releases its savepoint,
        // opens this one's and takes its stream's next `seq`.
        let rows = end.rows.take();
        let taken = match first_open.take() {
            Some(opened) => opened,
            None => open_next(&mut current, &join, savepoint_open, rows, &mut end.answers).await,
        };
        savepoint_open = true;
        let (seq, read) = match taken {
            Ok((Some(seq), read)) => (seq as u64, read),
            Ok((None, _)) => {
                // No `seq` came back (a stream is made by its first write, so
                // only a broken statement gets here): this write alone is
                // refused; its savepoint is empty, and released with the next
                // one's opening.
                let err = AppError::Internal(format!("no stream {:?}", join.key));
                let _ = join.lend.send(Lend::Refused(err));
                end.tx = Some(current);
                next = next_join(inbox, end.answers.len());
                continue;
            }
            Err(err) => {
                let err = Arc::new(AppError::from(err));
                // Its place was already counted out above.
                let _ = join.lend.send(Lend::Refused(retell(&err)));
                end.tx = Some(current);
                end.failure = Some(err);
                return end;
            }
        };
        let (back, returned) = oneshot::channel();
        let (verdict, heard) = oneshot::channel();
        let member = Member {
            tx: Some(current),
            seq,
            read,
            back: Some(back),
            verdict: Some(heard),
        };
        match join.lend.send(Lend::Turn(member)) {
            Ok(()) => {
                end.answers.push(Answer {
                    to: verdict,
                    failed: None,
                });
                match returned.await {
                    Ok(Returned {
                        tx: back,
                        ending: Ending::Keep(rows),
                    }) => {
                        end.rows = rows;
                        end.tx = Some(back);
                    }
                    Ok(Returned {
                        tx: mut back,
                        ending: Ending::RollBack,
                    }) => {
                        if let Err(err) = (&mut *back).execute("ROLLBACK TO SAVEPOINT member").await
                        {
                            // SQLite rolled back the whole transaction under
                            // it (a full disk, an I/O error): no one's write
                            // stands.
                            end.tx = Some(back);
                            end.failure = Some(Arc::new(err.into()));
                            return end;
                        }
                        end.tx = Some(back);
                    }
                    Err(_) => {
                        let err =
                            AppError::Internal("group commit: a write lost the transaction".into());
                        end.failure = Some(Arc::new(err));
                        return end;
                    }
                }
            }
            // The write gave up waiting: its savepoint stays empty.
            Err(Lend::Turn(member)) => end.tx = member.reclaim(),
            Err(Lend::Refused(_)) => {}
        }
        next = next_join(inbox, end.answers.len());
    }
    end
}

/// Opens the next write's savepoint and takes its stream's `seq`, in one
/// round trip with `rows`, the last kept write's. If that fails, it was the
/// rows, most likely (a retried command's reply already stored): that write
/// alone is rolled back to its savepoint and hears the error, and the
/// opening runs again by itself.
async fn open_next(
    tx: &mut Tx,
    join: &Join,
    savepoint_open: bool,
    rows: Option<Sql>,
    answers: &mut [Answer],
) -> Opened {
    let open = opening(join, savepoint_open);
    let Some(mut both) = rows else {
        return run_opening(tx, &open).await;
    };
    both.then(open);
    match run_opening(tx, &both).await {
        Ok(opened) => Ok(opened),
        Err(err) => {
            roll_back_last(tx, err, answers).await?;
            run_opening(tx, &opening(join, true)).await
        }
    }
}

/// Commits the group, with the last kept write's rows in the same round
/// trip. If they fail, that write alone is rolled back and the rest commit.
async fn commit(
    mut tx: Tx,
    rows: Option<Sql>,
    answers: &mut [Answer],
) -> (AppResult<()>, Option<Held>) {
    if let Some(mut rows) = rows {
        rows.then(Sql::new("COMMIT"));
        match (&mut *tx).execute(rows.query()).await {
            Ok(_) => return (Ok(()), tx.committed_held()),
            Err(err) => {
                if let Err(err) = roll_back_last(&mut tx, err, answers).await {
                    // Nothing of the group stands; dropped, the transaction's
                    // connection is closed.
                    return (Err(err.into()), None);
                }
            }
        }
    }
    tx.end_held(true).await
}

/// The last kept write's rows failed: it is rolled back to its savepoint
/// (still open: its rows run before it is released) and hears why.
async fn roll_back_last(
    tx: &mut Tx,
    err: sqlx::Error,
    answers: &mut [Answer],
) -> Result<(), sqlx::Error> {
    tracing::warn!(error = %err, "a write's rows failed: it alone is rolled back");
    (&mut **tx).execute("ROLLBACK TO SAVEPOINT member").await?;
    if let Some(last) = answers.last_mut() {
        last.failed = Some(Arc::new(err.into()));
    }
    Ok(())
}

/// A write's opening: its savepoint (`SAVEPOINT_FIRST`, or
/// `SAVEPOINT_AFTER_ANOTHER` once a write of the group had one), its reads,
/// and its stream's next `seq`.
fn opening(join: &Join, after_another: bool) -> Sql {
    let mut sql = Sql::new(if after_another {
        SAVEPOINT_AFTER_ANOTHER
    } else {
        SAVEPOINT_FIRST
    });
    sql.then(join.reads.clone());
    // The stream's next `seq` (as outside a group): the opening's last
    // statement, the only one whose rows have a column named `seq`.
    sql.then(stream::take_seq(&join.key));
    sql
}

/// What an opening returned: the stream's next `seq` (none if there is no
/// such stream), and the rows of the write's reads.
type Opened = Result<(Option<i64>, Vec<AnyRow>), sqlx::Error>;

/// Runs every statement of `sql`: the last kept write's rows (which return
/// none), then an opening.
async fn run_opening(tx: &mut Tx, sql: &Sql) -> Opened {
    split_opening(sql.query().fetch_all(&mut **tx).await?)
}

fn split_opening(mut rows: Vec<AnyRow>) -> Opened {
    let seq = match rows.last().map(|row| row.try_get::<i64, _>("seq")) {
        Some(Ok(seq)) => Some(seq),
        // The last row is a read's: taking the `seq` returned none.
        Some(Err(sqlx::Error::ColumnNotFound(_))) | None => None,
        Some(Err(err)) => return Err(err),
    };
    if seq.is_some() {
        rows.pop();
    }
    Ok((seq, rows))
}

/// The next write of the group, if one is waiting and the group has room.
fn next_join(inbox: &mut mpsc::UnboundedReceiver<Join>, members: usize) -> Option<Join> {
    if members < GROUP_LIMIT {
        inbox.try_recv().ok()
    } else {
        None
    }
}

fn refuse(join: Join, err: &AppError, waiting: &AtomicUsize) {
    waiting.fetch_sub(1, Ordering::SeqCst);
    // A write that gave up waiting needs no answer.
    let _ = join.lend.send(Lend::Refused(retell(err)));
}

/// One group's failure told to each of its writes: `busy` stays `busy` (the
/// user may retry); anything else is an internal error, logged by the writer.
fn retell(err: &AppError) -> AppError {
    if err.is_busy() {
        write_tx::busy()
    } else {
        AppError::Internal(format!("the write's group failed: {err}"))
    }
}

fn stopped() -> AppError {
    AppError::Internal("group commit: the writer has stopped".into())
}
