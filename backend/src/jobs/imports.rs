//! Writes confirmed imports, one at a time per node, on the job's own
//! thread: the merchant actors never wait on an import. The rows the
//! upload's check kept are read again, checked and prepared on a blocking
//! thread and handed over in batches through a small channel, so a
//! 100,000-row file is never held as rows all at once. Each
//! batch commits with the import's cursor and its delta; between batches
//! the job yields, so other writers of the stream slot in.
//!
//! While the database writes one batch, the job plans the next (`commit::
//! plan_batch`, on a blocking thread): its customers, accounts and rows
//! laid out for the database. The plan is used if nobody else wrote to the
//! stream in between, and made again in the batch's transaction otherwise.
//!
//! Any node's job may write any confirmed import. It claims one at a time
//! with a lease (`store::claim`, `FOR UPDATE SKIP LOCKED` on PostgreSQL),
//! renewed by every batch: the import confirmed on this node at once, and
//! every few seconds whatever no live node holds, so an import whose node
//! stopped is taken over by another (or by this one at its next start) once
//! the lease runs out. The cursor guard in each batch keeps a row from ever
//! being written twice, even by a node that lost its lease mid-batch.

use std::sync::Arc;

use protocol::{Change, EntityKind, ErrorCode, ImportTemplate, PaymentKind};
use tokio::sync::mpsc;

use paydesk::domain::calendar::parse_iso_date;
use paydesk::domain::imports::cells::Refusal;
use paydesk::domain::imports::commit::{
    BatchPlan, BatchTarget, ImportMemory, SkipRepeats, look_up, plan_batch,
};
use paydesk::domain::imports::duplicates::key_columns;
use paydesk::domain::imports::prepare::{PreparedRow, RowPlan, prepare_row};
use paydesk::domain::imports::rows::{ValidRow, method_of};
use paydesk::domain::imports::{check_file, check_kept_rows};
use paydesk::error::{AppError, AppResult};
use paydesk::ids::now_ms;
use paydesk::store::conn::Conn;
use paydesk::store::imports::{self as store, BatchCounts, Pending, PendingRows};
use paydesk::store::stream::{self, Actor, Cause, StreamKey, Work};
use paydesk::store::{Backend, Db, Tx, clocks};

use crate::live::messages::Tick;
use crate::live::registry::MerchantRegistry;

/// Rows per transaction.
pub const BATCH_ROWS: usize = 1_000;

/// Where confirmed imports wait for the job.
#[derive(Clone)]
pub struct ImportQueue {
    sender: mpsc::UnboundedSender<String>,
}

impl ImportQueue {
    pub fn new() -> (ImportQueue, mpsc::UnboundedReceiver<String>) {
        let (sender, receiver) = mpsc::unbounded_channel();
        (ImportQueue { sender }, receiver)
    }

    pub fn enqueue(&self, import_id: &str) {
        if self.sender.send(import_id.to_string()).is_err() {
            tracing::error!(import = %import_id, "the import job has stopped; another node takes the import up when its lease runs out");
        }
    }
}

/// How often the job looks for imports no live node holds.
const LOOK_AROUND: std::time::Duration = std::time::Duration::from_secs(5);

pub async fn run_forever(
    database_url: String,
    registry: Arc<MerchantRegistry>,
    mut queue: mpsc::UnboundedReceiver<String>,
    lease: std::time::Duration,
) {
    let db = match Db::connect_bulk_writer(&database_url).await {
        Ok(db) => db,
        Err(err) => {
            return tracing::error!(error = %err, "the import job cannot reach the database");
        }
    };
    let lease_ms = lease.as_millis() as i64;
    // SQLite serves one node: what a stopped run left is taken up at once,
    // rather than when its lease runs out.
    if db.backend == Backend::Sqlite
        && let Err(err) = store::release_leases(&db).await
    {
        tracing::error!(error = %err, "cannot free the leases of unfinished imports");
    }
    let mut asked: Option<String> = None;
    loop {
        // The import just confirmed here first, then any that is free.
        while let Some(id) = claim_logged(&db, asked.take().as_deref(), lease_ms).await {
            tracing::info!(import = %id, "writing an import");
            run_logged(&db, &registry, &id, lease_ms).await;
        }
        tokio::select! {
            confirmed = queue.recv() => match confirmed {
                Some(id) => asked = Some(id),
                None => return,
            },
            _ = tokio::time::sleep(LOOK_AROUND) => {}
        }
    }
}

async fn claim_logged(db: &Db, only: Option<&str>, lease_ms: i64) -> Option<String> {
    let now = now_ms();
    match store::claim(db, only, now, now + lease_ms).await {
        Ok(Some(id)) => Some(id),
        // The one asked for is held elsewhere or done: look for any other.
        Ok(None) if only.is_some() => Box::pin(claim_logged(db, None, lease_ms)).await,
        Ok(None) => None,
        Err(err) => {
            tracing::error!(error = %err, "cannot claim an import");
            None
        }
    }
}

async fn run_logged(db: &Db, registry: &MerchantRegistry, import_id: &str, lease_ms: i64) {
    loop {
        match run_import(db, registry, import_id, lease_ms).await {
            Ok(()) => return,
            // Other writers held the database for longer than the write
            // wait: the import goes on from its cursor rather than waiting
            // for its lease to run out.
            Err(err) if err.is_busy() => {
                tracing::warn!(error = %err, import = %import_id, "import waited out its turn; going on");
                tokio::time::sleep(BUSY_PAUSE).await;
            }
            Err(err) => {
                return tracing::error!(error = %err, import = %import_id, "import stopped; a node takes it up again when its lease runs out");
            }
        }
    }
}

/// After an import found the database busy, it lets the other writers
/// through for a moment before going on.
const BUSY_PAUSE: std::time::Duration = std::time::Duration::from_secs(1);

/// Reads the import's rows from its cursor on and sends batches of valid
/// rows, prepared (`prepare`): the rows its check kept, or the file for
/// imports confirmed before rows were kept.
fn read_batches(
    pending: &mut Pending,
    plan: RowPlan,
    sender: mpsc::Sender<Vec<PreparedRow>>,
) -> impl FnOnce() -> Result<(), Refusal> + Send + 'static {
    // The reader owns the rows: nothing else of the commit needs them.
    let rows = std::mem::replace(&mut pending.rows, PendingRows::Kept(Vec::new()));
    let (file_name, template, kind, after): (String, ImportTemplate, PaymentKind, u32) = (
        pending.import.file_name.clone(),
        pending.import.template,
        pending.import.kind,
        pending.next_row,
    );
    move || {
        let mut batch = Vec::with_capacity(BATCH_ROWS);
        let stopped = || Refusal::new(ErrorCode::Internal);
        let today = plan.today;
        let mut on_valid = |row: ValidRow| {
            if row.number <= after {
                return Ok(());
            }
            batch.push(prepare_row(&plan, row));
            if batch.len() == BATCH_ROWS {
                let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_ROWS));
                sender.blocking_send(full).map_err(|_| stopped())?;
            }
            Ok(())
        };
        match &rows {
            PendingRows::Kept(kept) => check_kept_rows(kept, template, kind, today, &mut on_valid)?,
            PendingRows::File(file) => {
                check_file(&file_name, file, template, kind, today, &mut on_valid)?
            }
        };
        if !batch.is_empty() {
            sender.blocking_send(batch).map_err(|_| stopped())?;
        }
        Ok(())
    }
}

pub async fn run_import(
    db: &Db,
    registry: &MerchantRegistry,
    import_id: &str,
    lease_ms: i64,
) -> AppResult<()> {
    let Some(mut pending) = store::find_pending(db, import_id).await? else {
        return Ok(());
    };
    let key = StreamKey::new(pending.merchant_id.clone(), pending.import.mode);
    let cause = Cause::background(Actor::Import {
        import_id: import_id.to_string(),
    });
    let today = parse_iso_date(&pending.checked_on)
        .ok_or_else(|| AppError::Internal("import checked on no date".into()))?;
    // Checking rows is several times quicker than writing them: room for a
    // few batches lets the reader stay ahead while it shares the machine.
    let (sender, mut batches) = mpsc::channel::<Vec<PreparedRow>>(8);
    // Rows are stamped by the stream's clock, read once: a test clock
    // moved on while the import runs changes no row already planned.
    let clock_ahead_ms =
        clocks::stream_clock_ahead_ms(&db.pool, &key.merchant_id, key.mode).await?;
    let plan = RowPlan {
        mode: key.mode,
        method: method_of(pending.import.template),
        today,
        import_id: import_id.to_string(),
        clock_ahead_ms,
    };
    let reader = tokio::task::spawn_blocking(read_batches(&mut pending, plan, sender));
    let mut cursor = pending.next_row;
    let mut checkpoint: Option<tokio::task::JoinHandle<()>> = None;
    let mut memory = ImportMemory::default();
    let customer_last_rows = pending.customer_last_rows.take().map(Arc::new);
    let import = &pending.import;
    let skip_repeats = (!import.include_duplicates).then(|| SkipRepeats {
        kind: import.kind,
        method: method_of(import.template),
        columns: key_columns(import.template, import.kind).into(),
    });
    let target = |now| BatchTarget {
        merchant_id: key.merchant_id.clone(),
        mode: key.mode,
        import_id: import_id.to_string(),
        now,
        customer_last_rows: customer_last_rows.clone(),
        skip_repeats: skip_repeats.clone(),
    };
    // The next batch, with its plan when one was made ahead.
    let mut next: Option<(Vec<PreparedRow>, Option<BatchPlan>)> =
        batches.recv().await.map(|batch| (batch, None));
    while let Some((batch, ahead)) = next.take() {
        let Some(last_row) = batch.last().map(|p| p.row.number) else {
            next = batches.recv().await.map(|batch| (batch, None));
            continue;
        };
        let (batches, memory) = (&mut batches, &mut memory);
        let written = stream::write(db, &key, &cause, async |tx: &mut Tx, seq| {
            let held = memory.follow(seq);
            let plan = match ahead.filter(|_| held) {
                Some(plan) => plan,
                None => {
                    let target = target(now_ms() + clock_ahead_ms);
                    look_up(tx, &target, memory, &batch).await?;
                    plan_batch(db.backend == Backend::Sqlite, &target, memory, &batch)?
                }
            };
            let step = BatchStep {
                import_id,
                after_row: cursor,
                last_row,
                lease_until: now_ms() + lease_ms,
            };
            let (wrote, upcoming) = tokio::join!(
                write_batch(tx, &key, step, plan),
                plan_ahead(db, batches, target(now_ms() + clock_ahead_ms), memory)
            );
            Ok(match wrote? {
                Some(changes) => Work::changed(changes, upcoming?),
                None => Work::Unchanged(None),
            })
        })
        .await?;
        let Some(seq) = written.seq else {
            // Another worker moved the cursor: it owns the import now.
            return Ok(());
        };
        next = written.value;
        registry.advance(&key, seq);
        checkpoint_beside(db, &mut checkpoint);
        cursor = last_row;
        tokio::task::yield_now().await;
    }
    match reader.await {
        Ok(Ok(())) => {}
        Ok(Err(refusal)) => {
            return Err(AppError::Internal(format!(
                "the stored rows could not be read again: {:?}",
                refusal.code
            )));
        }
        Err(err) => return Err(AppError::Internal(format!("import reader failed: {err}"))),
    }
    let finished = stream::write(db, &key, &cause, async |tx: &mut Tx, _seq| {
        if !store::finish(tx, import_id, now_ms() + clock_ahead_ms).await? {
            return Ok(Work::Unchanged(()));
        }
        let everything = [
            EntityKind::Customer,
            EntityKind::Mandate,
            EntityKind::Payment,
        ];
        Ok(Work::changed(
            progress(tx, &key, import_id, &everything).await?,
            (),
        ))
    })
    .await?;
    let Some(seq) = finished.seq else {
        return Ok(());
    };
    registry.advance(&key, seq);
    // Debits due today and DebiCheck requests go out now, not at the next round.
    if let Some(actor) = registry.running(&key) {
        actor.do_send(Tick);
    }
    Ok(())
}

/// Receives the next batch and plans it, while the batch before is written.
async fn plan_ahead(
    db: &Db,
    batches: &mut mpsc::Receiver<Vec<PreparedRow>>,
    target: BatchTarget,
    memory: &mut ImportMemory,
) -> AppResult<Option<(Vec<PreparedRow>, Option<BatchPlan>)>> {
    let Some(batch) = batches.recv().await else {
        return Ok(None);
    };
    let mut conn = Conn::from_pool(db.pool.acquire().await?);
    look_up(&mut conn, &target, memory, &batch).await?;
    drop(conn);
    // On a thread of its own, so that the task writing the batch before
    // keeps handing the database its statements meanwhile.
    let (mut known, on_sqlite) = (std::mem::take(memory), db.backend == Backend::Sqlite);
    let (known, batch, plan) = tokio::task::spawn_blocking(move || {
        let plan = plan_batch(on_sqlite, &target, &mut known, &batch);
        (known, batch, plan)
    })
    .await
    .map_err(|err| AppError::Internal(format!("import planner failed: {err}")))?;
    *memory = known;
    Ok(Some((batch, Some(plan?))))
}

/// Where one batch goes in its import.
struct BatchStep<'a> {
    import_id: &'a str,
    /// The cursor before the batch, and the last spreadsheet row it holds.
    after_row: u32,
    last_row: u32,
    /// This node's claim on the import, renewed with the batch.
    lease_until: i64,
}

/// Writes a planned batch with the import's cursor, and returns the delta's
/// changes. None, having written nothing, when another worker moved the
/// cursor: it owns the import now.
async fn write_batch(
    tx: &mut Tx,
    key: &StreamKey,
    step: BatchStep<'_>,
    plan: BatchPlan,
) -> AppResult<Option<Vec<Change>>> {
    let counts = BatchCounts {
        committed: plan.committed,
        failed: plan.failed.len() as u32,
        skipped: plan.skipped.len() as u32,
    };
    store::insert_issues(tx, step.import_id, &plan.failed).await?;
    store::insert_issues(tx, step.import_id, &plan.skipped).await?;
    plan.write(tx).await?;
    let (after_row, last_row) = (step.after_row, step.last_row);
    let advanced = store::advance(
        tx,
        step.import_id,
        after_row,
        last_row,
        counts,
        step.lease_until,
    );
    if !advanced.await? {
        return Ok(None);
    }
    let refetch = [EntityKind::Payment];
    Ok(Some(progress(tx, key, step.import_id, &refetch).await?))
}

/// Starts a checkpoint of the batches written so far unless one is still
/// running: it copies pages while the next batch is built and written.
fn checkpoint_beside(db: &Db, running: &mut Option<tokio::task::JoinHandle<()>>) {
    if running.as_ref().is_some_and(|task| !task.is_finished()) {
        return;
    }
    let db = db.clone();
    *running = Some(tokio::spawn(async move {
        if let Err(err) = db.checkpoint_passive().await {
            tracing::warn!(error = %err, "import checkpoint failed; the next one retries");
        }
    }));
}

/// The import's progress and which lists to refetch, as one delta's changes.
async fn progress(
    tx: &mut Tx,
    key: &StreamKey,
    import_id: &str,
    refetch: &[EntityKind],
) -> AppResult<Vec<Change>> {
    let import = store::reload(tx, &key.merchant_id, key.mode, import_id).await?;
    let mut changes = vec![Change::ImportUpserted {
        import: Box::new(import),
    }];
    changes.extend(
        refetch
            .iter()
            .map(|kind| Change::Invalidate { kind: *kind }),
    );
    Ok(changes)
}
