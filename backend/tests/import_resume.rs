//! Kill and resume of an import's commit, against the real server binary.
//!
//! The server runs as a child process (`backend serve`) on one database. A
//! merchant uploads, checks and confirms a once-off EFT debit order file of
//! about 20,000 valid rows (21 batches) and a few invalid ones, in test
//! mode. The child is then SIGKILLed at seeded random points of the commit
//! (right after a progress delta, or after a random delay, possibly while a
//! restarted server is still reading the file again), restarted on the same
//! database, and so on three times, until the import completes. The first
//! start reads the rows the check kept; later ones read the stored file, as
//! imports confirmed before rows were kept do. After every kill, and at the
//! end, the database must agree with the import's cursor:
//! every valid row written exactly once, none lost, no customer doubled.
//!
//! SQLite always; PostgreSQL too when `TEST_DATABASE_URL` is set. Replay a
//! run with `IMPORT_RESUME_SEED=<seed>` (the seed is printed).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use common::server_process::ServerProcess;
use common::{Browser, Database, Ended, Socket, committed_id};
use protocol::{
    ClientFrame, Command, Import, ImportStatus, ImportTemplate, Mode, PaymentKind, Query,
    ReplyBody, ServerFrame,
};
use sqlx::Row;

/// Data rows in the file; a few of them are invalid (`INVALID_AT`).
const DATA_ROWS: u32 = 20_442;
/// Data row indexes (0-based) that break a rule, spread across batches.
const INVALID_AT: [u32; 5] = [0, 1_499, 7_776, 12_000, 20_441];
/// Customer references repeat every this many rows, so one customer's rows
/// fall into several batches (and several runs).
const CUSTOMERS: u32 = 7_000;
const KILLS: usize = 3;
/// The pinned calendar; every date to process is after it.
const BUSINESS_DATE: &str = "2026-06-01";
const EMAIL: &str = "imports@example.co.za";
const PASSWORD: &str = "karoo-sunset-41";

/// A small seeded generator (SplitMix64): enough to pick kill points.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `low..=high`.
    fn between(&mut self, low: u64, high: u64) -> u64 {
        low + self.next() % (high - low + 1)
    }
}

fn seed() -> u64 {
    match std::env::var("IMPORT_RESUME_SEED") {
        Ok(value) => value
            .trim()
            .parse()
            .expect("IMPORT_RESUME_SEED is a number"),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64,
    }
}

/// The file and what the server should make of it.
struct ImportFile {
    csv: Vec<u8>,
    /// Spreadsheet row numbers (the header is row 1) of the valid rows.
    valid_rows: BTreeSet<u32>,
    references: u32,
    /// Problems the check found, filled in after the upload.
    issue_count: u32,
}

fn import_file() -> ImportFile {
    let mut csv = String::from(
        "Customer reference,Person name,Person surname,Email,Bank account holder name,\
         Bank account number,Bank account type,Bank name,Bank branch code,Amount,\
         Date to process,Type of payment\n",
    );
    let mut valid_rows = BTreeSet::new();
    for i in 0..DATA_ROWS {
        let customer = i % CUSTOMERS;
        let reference = format!("CUST-{customer:05}");
        let email = format!("payer{customer}@example.co.za");
        // Ten digits: Absa's numbers have 9 to 11.
        let account = 1_000_000_000 + customer;
        let cents = 1_000 + i % 97;
        let amount = format!("{}.{:02}", cents / 100, cents % 100);
        let day = 2 + i % 27;
        let mut line = [
            reference,
            "Thandi".into(),
            "Nkosi".into(),
            email,
            "T Nkosi".into(),
            account.to_string(),
            "Current".into(),
            "Absa".into(),
            "632005".into(),
            amount,
            format!("2026-07-{day:02}"),
            "Subscription".into(),
        ];
        match INVALID_AT.iter().position(|at| *at == i) {
            Some(0) => line[0] = "HAS SPACE".into(),
            Some(1) => line[3] = "someone@mailinator.com".into(),
            Some(2) => line[8] = "63200".into(),
            Some(3) => line[9] = "0.00".into(),
            Some(_) => line[10] = "2026-05-01".into(),
            None => {
                valid_rows.insert(i + 2);
            }
        }
        csv.push_str(&line.join(","));
        csv.push('\n');
    }
    ImportFile {
        csv: csv.into_bytes(),
        valid_rows,
        references: CUSTOMERS,
        issue_count: 0,
    }
}

/// A node on the test's database with the pinned calendar. Its import lease
/// is short, so on PostgreSQL (where a restarted node cannot tell its own
/// dead run's lease from a live node's) it takes the import up soon.
async fn start_node(dir: &Path, url: &str, run: usize) -> ServerProcess {
    let env = [
        ("BUSINESS_DATE", BUSINESS_DATE),
        ("IMPORT_LEASE_SECONDS", "2"),
    ];
    ServerProcess::start(dir, url, run, &env).await
}

/// A job error in the log means the import stopped until its lease ran out.
fn assert_no_job_error(server: &ServerProcess) {
    let text = server.log_text();
    assert!(
        !text.contains("import stopped"),
        "the import job failed:\n{text}"
    );
}

async fn test_mode_socket(browser: &Browser) -> (Socket, String) {
    let mut socket = browser.socket().await;
    socket
        .send(&ClientFrame::Hello {
            resume: None,
            build: "test".into(),
            merchant_id: None,
            mode: Some(Mode::Test),
        })
        .await;
    match frame_where(&mut socket, "Welcome", |f| {
        matches!(f, ServerFrame::Welcome { .. })
    })
    .await
    {
        ServerFrame::Welcome { merchant, mode, .. } => {
            assert_eq!(mode, Mode::Test);
            (socket, merchant.id)
        }
        other => panic!("expected Welcome, got {other:?}"),
    }
}

/// How long a reply may take: checking 20,000 rows in a debug build on a
/// busy machine takes seconds, more than the harness's usual wait.
const REPLY_WAIT: Duration = Duration::from_secs(60);

/// The first frame `wanted` accepts; frames before it are dropped.
async fn frame_where(
    socket: &mut Socket,
    what: &str,
    wanted: impl Fn(&ServerFrame) -> bool,
) -> ServerFrame {
    let deadline = Instant::now() + REPLY_WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match socket.next_within(left).await {
            Ok(frame) if wanted(&frame) => return frame,
            Ok(_) => {}
            Err(ended) => panic!("waiting for {what}: {ended:?}"),
        }
    }
}

fn is_reply_to(frame: &ServerFrame, id: &str) -> bool {
    matches!(frame, ServerFrame::Reply { id: reply_to, .. } if reply_to == id)
}

async fn command(socket: &mut Socket, id: &str, command: Command) -> ServerFrame {
    socket
        .send(&ClientFrame::Command {
            id: id.into(),
            command,
        })
        .await;
    frame_where(socket, id, |f| is_reply_to(f, id)).await
}

async fn query(socket: &mut Socket, id: &str, query: Query) -> ServerFrame {
    socket
        .send(&ClientFrame::Query {
            id: id.into(),
            query,
        })
        .await;
    frame_where(socket, id, |f| is_reply_to(f, id)).await
}

fn ok_of(frame: ServerFrame) -> ReplyBody {
    match frame {
        ServerFrame::Reply { ok: Some(ok), .. } => ok,
        other => panic!("expected a reply, got {other:?}"),
    }
}

/// Uploads, checks and confirms the file: the import's id, how many
/// problems the check found and how long the check took.
async fn upload_and_confirm(socket: &mut Socket, file: &ImportFile) -> (String, u32, u64) {
    let begin = Command::BeginImport {
        kind: PaymentKind::Once,
        template: ImportTemplate::EftDebitOrder,
        file_name: "debit-orders.csv".into(),
        size: file.csv.len() as u32,
    };
    let (upload_id, chunk_bytes) = match ok_of(command(socket, "begin", begin).await) {
        ReplyBody::ImportUpload {
            upload_id,
            chunk_bytes,
        } => (upload_id, chunk_bytes as usize),
        other => panic!("expected an upload, got {other:?}"),
    };
    for (n, piece) in file.csv.chunks(chunk_bytes).enumerate() {
        let chunk = Command::UploadImportChunk {
            upload_id: upload_id.clone(),
            offset: (n * chunk_bytes) as u32,
            data: piece.to_vec(),
        };
        let reply = ok_of(command(socket, &format!("chunk-{n}"), chunk).await);
        assert!(matches!(reply, ReplyBody::ImportChunkReceived { .. }));
    }
    let check = Command::CheckImport {
        upload_id: upload_id.clone(),
    };
    let checking = Instant::now();
    let preview = match ok_of(command(socket, "check", check).await) {
        ReplyBody::ImportPreview { preview } => preview,
        other => panic!("expected a preview, got {other:?}"),
    };
    let check_ms = checking.elapsed().as_millis() as u64;
    assert_eq!(preview.rows, DATA_ROWS);
    assert_eq!(preview.valid as usize, file.valid_rows.len());
    assert_eq!(preview.invalid as usize, INVALID_AT.len());
    let id = committed_id(
        command(
            socket,
            "confirm",
            Command::ConfirmImport {
                upload_id,
                include_duplicates: false,
                allow_duplicate_file: false,
            },
        )
        .await,
    );
    (id, preview.issue_count, check_ms)
}

/// The next progress of this import on the socket, within `wait`.
async fn next_progress(socket: &mut Socket, import_id: &str, wait: Duration) -> Option<Import> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match socket.next_within(left).await {
            Ok(ServerFrame::Delta { changes, .. }) => {
                let found = changes.into_iter().find_map(|change| match change {
                    protocol::Change::ImportUpserted { import } if import.id == import_id => {
                        Some(*import)
                    }
                    _ => None,
                });
                if found.is_some() {
                    return found;
                }
            }
            Ok(_) => {}
            Err(Ended::TimedOut) => return None,
            Err(Ended::Closed(code)) => panic!("socket closed ({code:?}) while watching"),
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum KillPoint {
    /// As soon as a progress delta shows at least `committed` rows written,
    /// then `extra_ms` later: at a batch boundary or inside the next batch
    /// (or, after the last batch, before the import is marked completed).
    AfterProgress { committed: u32, extra_ms: u64 },
    /// `ms` after the run's work began (the confirm, or the restart): inside
    /// a batch, or while a restarted job is still reading the file again.
    /// Cut short if progress reaches the last two batches, so that every
    /// kill lands before the import completes.
    AfterDelay { ms: u64 },
}

/// Which kind each kill is: both kinds in every test, the rest seeded.
fn kill_kinds(rng: &mut Rng) -> [bool; KILLS] {
    let first_by_progress = rng.next().is_multiple_of(2);
    [
        first_by_progress,
        !first_by_progress,
        rng.next().is_multiple_of(2),
    ]
}

/// Timings seen so far, to aim random delays at the part still to come.
struct Pace {
    /// Reading and checking the whole file once (the upload's check).
    check_ms: u64,
    /// Writing one batch; a guess from `check_ms` until progress is seen.
    batch_ms: Option<u64>,
}

impl Pace {
    fn batch_ms(&self) -> u64 {
        // Writing 1,000 rows costs about what reading 10,000 does.
        self.batch_ms.unwrap_or(self.check_ms / 2).max(1)
    }

    /// How long a run starting from `written` rows takes before its last two batches.
    fn span_ms(&self, run: usize, written: u32, valid: u32) -> u64 {
        let reread = if run == 0 {
            0
        } else {
            self.check_ms * u64::from(written) / u64::from(DATA_ROWS)
        };
        let left = u64::from((valid - written) / 1_000).saturating_sub(2);
        reread + left * self.batch_ms()
    }
}

/// What the database holds of the import, read with plain SQL.
struct Snapshot {
    status: String,
    committed_rows: i64,
    failed_rows: i64,
    next_row: i64,
    payment_rows: Vec<i64>,
    doubled_rows: Vec<(i64, i64)>,
    customers: i64,
    doubled_references: Vec<(String, i64)>,
    mandates: i64,
    bank_accounts: i64,
    issues: i64,
}

/// A pool for reading only (SQLite opened read-only).
async fn read_only(url: &str) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    let url = if url.starts_with("sqlite:") {
        format!("{url}?mode=ro")
    } else {
        url.to_string()
    };
    sqlx::AnyPool::connect(&url)
        .await
        .expect("open the database")
}

/// From the second start on, the commit reads the stored file instead of
/// the rows its check kept, as an import confirmed before rows were kept
/// does: both ways must resume alike.
async fn forget_kept_rows(url: &str, import_id: &str) {
    let pool = sqlx::AnyPool::connect(url)
        .await
        .expect("open the database");
    let forgotten = sqlx::query("UPDATE import_files SET kept_rows = NULL WHERE import_id = $1")
        .bind(import_id)
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(forgotten.rows_affected(), 1);
    pool.close().await;
}

async fn snapshot(url: &str, merchant_id: &str, import_id: &str) -> Snapshot {
    let pool = read_only(url).await;
    let import = sqlx::query(
        "SELECT status, committed_rows, failed_rows, next_row FROM imports WHERE id = $1",
    )
    .bind(import_id)
    .fetch_one(&pool)
    .await
    .unwrap();
    let payment_rows = sqlx::query(
        "SELECT import_row FROM payments WHERE import_id = $1 AND merchant_id = $2 ORDER BY import_row",
    )
    .bind(import_id)
    .bind(merchant_id)
    .fetch_all(&pool)
    .await
    .unwrap()
    .iter()
    .map(|r| r.get::<i64, _>("import_row"))
    .collect();
    let doubled_rows = sqlx::query(
        "SELECT import_row, COUNT(*) AS n FROM payments WHERE import_id = $1 \
         GROUP BY import_row HAVING COUNT(*) > 1",
    )
    .bind(import_id)
    .fetch_all(&pool)
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get::<i64, _>("import_row"), r.get::<i64, _>("n")))
    .collect();
    let doubled_references = sqlx::query(
        "SELECT reference, COUNT(*) AS n FROM customers WHERE merchant_id = $1 AND mode = 'test' \
         GROUP BY reference HAVING COUNT(*) > 1",
    )
    .bind(merchant_id)
    .fetch_all(&pool)
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get::<String, _>("reference"), r.get::<i64, _>("n")))
    .collect();
    let count = |sql: &'static str, bind: &str| {
        let pool = pool.clone();
        let bind = bind.to_string();
        async move {
            sqlx::query(sql)
                .bind(bind)
                .fetch_one(&pool)
                .await
                .unwrap()
                .get::<i64, _>("n")
        }
    };
    let snapshot = Snapshot {
        status: import.get("status"),
        committed_rows: import.get("committed_rows"),
        failed_rows: import.get("failed_rows"),
        next_row: import.get("next_row"),
        payment_rows,
        doubled_rows,
        customers: count(
            "SELECT COUNT(*) AS n FROM customers WHERE merchant_id = $1 AND mode = 'test'",
            merchant_id,
        )
        .await,
        doubled_references,
        mandates: count(
            "SELECT COUNT(*) AS n FROM mandates WHERE merchant_id = $1 AND mode = 'test'",
            merchant_id,
        )
        .await,
        bank_accounts: count(
            "SELECT COUNT(*) AS n FROM bank_accounts WHERE merchant_id = $1 AND mode = 'test'",
            merchant_id,
        )
        .await,
        issues: count(
            "SELECT COUNT(*) AS n FROM import_issues WHERE import_id = $1",
            import_id,
        )
        .await,
    };
    pool.close().await;
    snapshot
}

/// What must hold after any kill: the payments written are exactly the
/// valid rows up to the cursor, each once, and the counts agree.
fn assert_consistent(s: &Snapshot, file: &ImportFile, context: &str) {
    assert!(
        s.doubled_rows.is_empty(),
        "{context}: rows written twice: {:?}",
        s.doubled_rows
    );
    assert!(
        s.doubled_references.is_empty(),
        "{context}: customers doubled: {:?}",
        s.doubled_references
    );
    assert_eq!(s.failed_rows, 0, "{context}: failed rows");
    let written: BTreeSet<u32> = s.payment_rows.iter().map(|r| *r as u32).collect();
    let expected: BTreeSet<u32> = file
        .valid_rows
        .iter()
        .copied()
        .filter(|r| i64::from(*r) <= s.next_row)
        .collect();
    let lost: Vec<_> = expected.difference(&written).take(20).collect();
    let extra: Vec<_> = written.difference(&expected).take(20).collect();
    assert!(
        lost.is_empty() && extra.is_empty(),
        "{context}: cursor at row {}, rows missing {lost:?}, rows beyond the cursor or invalid {extra:?}",
        s.next_row
    );
    assert_eq!(
        s.payment_rows.len() as i64,
        s.committed_rows,
        "{context}: payments written vs committed_rows"
    );
    assert_eq!(
        s.mandates, s.committed_rows,
        "{context}: one mandate per written row"
    );
    let customers_seen: BTreeSet<u32> = written.iter().map(|row| (row - 2) % CUSTOMERS).collect();
    assert_eq!(
        s.customers,
        customers_seen.len() as i64,
        "{context}: customers"
    );
    assert_eq!(
        s.bank_accounts, s.customers,
        "{context}: one bank account per customer"
    );
    assert_eq!(
        s.issues,
        i64::from(file.issue_count),
        "{context}: one issue row per problem the check found"
    );
}

/// Watches one server's progress until the kill point, then kills it.
/// Returns the progress deltas seen, with when they came.
async fn run_until_killed(
    server: &mut ServerProcess,
    socket: &mut Socket,
    import_id: &str,
    point: KillPoint,
    started: Instant,
    valid: u32,
) -> Vec<(Instant, Import)> {
    let mut seen: Vec<(Instant, Import)> = Vec::new();
    let (until, wanted) = match point {
        KillPoint::AfterProgress { committed, .. } => {
            (started + Duration::from_secs(120), Some(committed))
        }
        KillPoint::AfterDelay { ms } => (started + Duration::from_millis(ms), None),
    };
    // A delay is cut short here: the last two batches stay unwritten.
    let near_end = valid.saturating_sub(1_500);
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            assert!(
                wanted.is_none(),
                "no progress to {wanted:?} rows within two minutes:\n{}",
                server.log_text()
            );
            break;
        }
        let Some(import) = next_progress(socket, import_id, left).await else {
            continue;
        };
        let stop = import.status == ImportStatus::Completed
            || wanted.is_some_and(|w| import.committed >= w)
            || (wanted.is_none() && import.committed >= near_end);
        seen.push((Instant::now(), import));
        if stop {
            break;
        }
    }
    if let KillPoint::AfterProgress { extra_ms, .. } = point {
        tokio::time::sleep(Duration::from_millis(extra_ms)).await;
    }
    server.kill();
    seen
}

/// The test stream's events run 1, 2, 3, ... with no gap up to the
/// stream's counter: no `seq` was taken by a batch without its delta.
async fn assert_events_contiguous(url: &str, merchant_id: &str, context: &str) {
    let pool = read_only(url).await;
    let seqs: Vec<i64> =
        sqlx::query("SELECT seq FROM events WHERE merchant_id = $1 AND mode = 'test' ORDER BY seq")
            .bind(merchant_id)
            .fetch_all(&pool)
            .await
            .unwrap()
            .iter()
            .map(|r| r.get::<i64, _>("seq"))
            .collect();
    let counter: i64 =
        sqlx::query("SELECT seq FROM merchant_streams WHERE merchant_id = $1 AND mode = 'test'")
            .bind(merchant_id)
            .fetch_one(&pool)
            .await
            .unwrap()
            .get("seq");
    pool.close().await;
    let expected: Vec<i64> = (1..=counter).collect();
    assert_eq!(seqs, expected, "{context}: the test stream's events");
}

async fn kill_and_resume(url: String) {
    let seed = seed();
    println!("import_resume seed {seed} (replay with IMPORT_RESUME_SEED={seed})");
    let mut rng = Rng(seed);
    let kinds = kill_kinds(&mut rng);
    let mut file = import_file();
    let valid = file.valid_rows.len() as u32;
    let dir = tempfile::tempdir().unwrap();
    let test_began = Instant::now();

    let mut server = start_node(dir.path(), &url, 0).await;
    let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
    let browser = server.browser(&jar);
    let signed_up = browser
        .sign_up("Thandi Nkosi", EMAIL, PASSWORD, "Karoo Gym")
        .await;
    assert_eq!(signed_up.status(), 200, "sign-up");
    let (mut socket, merchant_id) = test_mode_socket(&browser).await;
    let (import_id, issue_count, check_ms) = upload_and_confirm(&mut socket, &file).await;
    file.issue_count = issue_count;
    let mut started = Instant::now();
    let mut pace = Pace {
        check_ms,
        batch_ms: None,
    };
    let mut written_before = 0u32;

    for (run, by_progress) in kinds.into_iter().enumerate() {
        let point = if by_progress && run == KILLS - 1 && rng.next().is_multiple_of(3) {
            // Right after the last batch: the restart must still finish it.
            KillPoint::AfterProgress {
                committed: valid,
                extra_ms: 0,
            }
        } else if by_progress {
            // Kill `run` aims at batches 6 run + 1 ..= 6 run + 6 of the 21,
            // always past what is already written.
            let batch = 6 * run as u32 + rng.between(1, 6) as u32;
            KillPoint::AfterProgress {
                committed: (batch * 1_000).max(written_before + 1_000),
                extra_ms: if rng.next().is_multiple_of(3) {
                    0
                } else {
                    rng.between(1, 60)
                },
            }
        } else {
            let span = pace.span_ms(run, written_before, valid);
            KillPoint::AfterDelay {
                ms: rng.between(0, span),
            }
        };
        let seen =
            run_until_killed(&mut server, &mut socket, &import_id, point, started, valid).await;
        let run_ms = started.elapsed().as_millis() as u64;
        assert_no_job_error(&server);
        // Batches this run wrote while being watched give the pace.
        let batches: Vec<_> = seen
            .iter()
            .filter(|(_, i)| i.committed > written_before && i.status == ImportStatus::Committing)
            .collect();
        if let [(first_at, first), .., (last_at, last)] = batches.as_slice() {
            let rows = u64::from(last.committed - first.committed);
            let ms = last_at.duration_since(*first_at).as_millis() as u64;
            if let Some(per_batch) = (ms * 1_000).checked_div(rows) {
                pace.batch_ms = Some(per_batch);
            }
        }
        let s = snapshot(&url, &merchant_id, &import_id).await;
        let written = s.committed_rows as u32;
        println!(
            "kill {} at {point:?}, {run_ms} ms into run {run}: this run wrote {} rows; \
             database: {written} rows written, cursor at row {}, {} (batch ~{} ms)",
            run + 1,
            written - written_before,
            s.next_row,
            s.status,
            pace.batch_ms()
        );
        let context = format!("seed {seed}, after kill {}", run + 1);
        assert_consistent(&s, &file, &context);
        assert_events_contiguous(&url, &merchant_id, &context).await;
        written_before = written;
        if run == 0 {
            forget_kept_rows(&url, &import_id).await;
        }

        server = start_node(dir.path(), &url, run + 1).await;
        started = Instant::now();
        let browser = server.browser(&jar);
        (socket, _) = test_mode_socket(&browser).await;
        if s.status == "completed" {
            // The import finished before this kill came: no batch is left to
            // cut, and no progress will come for the next kill to wait on.
            println!("the import completed before kill {}", run + 1);
            break;
        }
    }

    // The last start runs to the end; a fresh socket asks until it is done.
    let deadline = Instant::now() + Duration::from_secs(90);
    let mut polls = 0;
    let finished = loop {
        polls += 1;
        let get = Query::GetImport {
            import_id: import_id.clone(),
        };
        match ok_of(query(&mut socket, &format!("get-import-{polls}"), get).await) {
            ReplyBody::Import { import } if import.status == ImportStatus::Completed => {
                break import;
            }
            ReplyBody::Import { .. } => {}
            other => panic!("expected an import, got {other:?}"),
        }
        assert_no_job_error(&server);
        assert!(
            Instant::now() < deadline,
            "seed {seed}: the import did not complete:\n{}",
            server.log_text()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    println!(
        "completed {} ms after the last start; whole test {} ms",
        started.elapsed().as_millis(),
        test_began.elapsed().as_millis()
    );
    assert_eq!(finished.committed, valid, "seed {seed}: committed");
    assert_eq!(finished.failed, 0, "seed {seed}: failed");
    assert_eq!(finished.valid, valid);
    server.kill();

    let s = snapshot(&url, &merchant_id, &import_id).await;
    let context = format!("seed {seed}, at the end");
    assert_eq!(s.status, "completed", "{context}");
    assert_eq!(s.committed_rows, i64::from(valid), "{context}");
    assert_eq!(s.payment_rows.len(), valid as usize, "{context}");
    assert_eq!(
        s.next_row,
        i64::from(*file.valid_rows.last().unwrap()),
        "{context}"
    );
    assert_consistent(&s, &file, &context);
    assert_events_contiguous(&url, &merchant_id, &context).await;
    assert_eq!(s.customers, i64::from(file.references), "{context}");
}

#[actix_web::test]
async fn sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("dashboard.db").display());
    kill_and_resume(url).await;
}

#[actix_web::test]
async fn postgres() {
    match Database::postgres() {
        Some(Database::Postgres(base)) => {
            kill_and_resume(common::fresh_postgres_database(&base).await).await;
        }
        _ => eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run is skipped"),
    }
}
