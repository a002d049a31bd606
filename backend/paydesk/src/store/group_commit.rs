//! Group commit, for SQLite's one writer. Writes of merchants' streams
//! (`stream::write`) that arrive while the file is busy are committed together
//! in one transaction: one `BEGIN IMMEDIATE`, one `COMMIT` (one sync of the
//! log) and one pass of the file's turn for the whole group, instead of one
//! each. Each write still takes its own `seq`, runs its own work and gets its
//! own answer, under a savepoint of its own: a write that fails, or changed
//! nothing, is rolled back to its savepoint and leaves the others in. A
//! write's last statements, which it does not read back (its event and
//! what travels with it), run in the writer's next round trip, with the next
//! write's opening or with the `COMMIT`: one hop fewer per write.
//!
//! The writer is a task on a thread of its own, holding the group's
//! transaction. It lends the transaction to one write at a time, in arrival
//! order: the write's own task runs its work on it (the work borrows from its
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

use super::sql::{Bind, Sql};
use super::stream::StreamKey;
use super::write_tx::Held;
use super::{SqliteTurn, Tx, write_tx};
use crate::error::{AppError, AppResult};

/// At most this many writes share one transaction, so the first of a group
/// waits for at most this many others' work before its commit.
const GROUP_LIMIT: usize = 64;

/// A write's opening: its savepoint, and its stream's next `seq` (as
/// `stream::take_next_seq` takes it outside a group).
const OPEN_FIRST: &str = "SAVEPOINT member; \
    UPDATE merchant_streams SET seq = seq + 1 WHERE merchant_id = $1 AND mode = $2 RETURNING seq";
/// The same, releasing the previous write's savepoint first.
const OPEN_AFTER_ANOTHER: &str = "RELEASE SAVEPOINT member; SAVEPOINT member; \
    UPDATE merchant_streams SET seq = seq + 1 WHERE merchant_id = $1 AND mode = $2 RETURNING seq";

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
    /// `busy`, as `begin_write` answers.
    pub(super) async fn join(&self, key: &StreamKey) -> AppResult<Member> {
        let (lend, lent) = oneshot::channel();
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let join = Join {
            key: key.clone(),
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
        let (tx, first_open) = match turn
            .begin_held(&mut held, &opening(&first.key, false))
            .await
        {
            Ok((tx, rows)) => (tx, last_number_of(&rows)),
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
    (first, first_open): (Join, Result<Option<i64>, sqlx::Error>),
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
        // Every statement of the group is a hop to the connection's thread,
        // and the group's writes run one after another: one round trip runs
        // the last write's rows, releases its savepoint, opens this one's
        // and takes its stream's next `seq`.
        let rows = end.rows.take();
        let taken = match first_open.take() {
            Some(opened) => opened,
            None => {
                open_next(
                    &mut current,
                    &join.key,
                    savepoint_open,
                    rows,
                    &mut end.answers,
                )
                .await
            }
        };
        savepoint_open = true;
        let seq = match taken {
            Ok(Some(seq)) => seq as u64,
            Ok(None) => {
                // No such stream: this write alone is refused; its savepoint
                // is empty, and released with the next one's opening.
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
    key: &StreamKey,
    savepoint_open: bool,
    rows: Option<Sql>,
    answers: &mut [Answer],
) -> Result<Option<i64>, sqlx::Error> {
    let open = opening(key, savepoint_open);
    let Some(mut both) = rows else {
        return last_number(tx, &open).await;
    };
    both.then(open);
    match last_number(tx, &both).await {
        Ok(seq) => Ok(seq),
        Err(err) => {
            roll_back_last(tx, err, answers).await?;
            last_number(tx, &opening(key, true)).await
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

/// The savepoint of a write and its stream's next `seq` (`OPEN_FIRST`,
/// or `OPEN_AFTER_ANOTHER` once a write of the group had one).
fn opening(key: &StreamKey, after_another: bool) -> Sql {
    let text = if after_another {
        OPEN_AFTER_ANOTHER
    } else {
        OPEN_FIRST
    };
    Sql::statement(
        text,
        vec![
            Bind::Text(key.merchant_id.clone()),
            Bind::Text(key.mode.as_str().into()),
        ],
    )
}

/// Runs every statement of `sql` and answers the first column of the last
/// row any of them returned (the `seq`: the rows before it return none).
async fn last_number(tx: &mut Tx, sql: &Sql) -> Result<Option<i64>, sqlx::Error> {
    let rows = sql.query().fetch_all(&mut **tx).await?;
    last_number_of(&rows)
}

fn last_number_of(rows: &[AnyRow]) -> Result<Option<i64>, sqlx::Error> {
    rows.last().map(|row| row.try_get::<i64, _>(0)).transpose()
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
