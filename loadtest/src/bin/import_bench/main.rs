//! The import benchmark (docs/benchmarks.md, "Import"): makes a
//! 100,000-row spreadsheet, times reading and checking it, times committing
//! it into a fresh SQLite database through the import job's own code, and
//! measures a second merchant's commands over the socket while a server
//! commits the same file. `loadtest/import-bench.sh` runs every step and
//! pandas beside it.

mod live;
mod sheet;

#[allow(dead_code)]
#[path = "../../error.rs"]
mod error;
#[allow(dead_code)]
#[path = "../../signup.rs"]
mod signup;
#[allow(dead_code)]
#[path = "../../target.rs"]
mod target;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use backend::jobs::imports::run_import;
use backend::live::registry::MerchantRegistry;
use clap::{Parser, Subcommand};
use paydesk::domain::calendar::iso_date;
use paydesk::domain::clock::BusinessClock;
use paydesk::domain::imports::{CheckedFile, check_file_keeping_rows};
use paydesk::ids::{new_id, now_ms};
use paydesk::store::stream::{self, Actor, Cause, StreamKey, Work};
use paydesk::store::{Db, Tx, events, imports, users};
use protocol::{Change, Import, ImportStatus, ImportTemplate, Mode, PaymentKind};

use crate::error::Fallible;

const TEMPLATE: ImportTemplate = ImportTemplate::RegisteredMandate;
const KIND: PaymentKind = PaymentKind::Recurring;

#[derive(Parser, Debug)]
#[command(about = "Import benchmark: make, check and commit a large spreadsheet")]
struct Args {
    #[command(subcommand)]
    step: Step,
}

#[derive(Subcommand, Debug)]
enum Step {
    /// Writes a file of valid Registered Mandate recurring rows.
    Generate {
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 100_000)]
        rows: usize,
    },
    /// Reads and checks the file `runs` times (nothing is written).
    Parse {
        file: PathBuf,
        #[arg(long, default_value_t = 3)]
        runs: u32,
    },
    /// Commits the file into a fresh SQLite database under `dir`.
    Commit {
        file: PathBuf,
        #[arg(long)]
        dir: PathBuf,
    },
    /// Against a running server: one merchant imports the file over the
    /// socket while a second merchant's commands are timed.
    Live {
        file: PathBuf,
        #[arg(long, default_value = "http://127.0.0.1:18090")]
        url: String,
        /// Milliseconds between the second merchant's commands.
        #[arg(long, default_value_t = 100)]
        every_ms: u64,
    },
}

fn today() -> time::Date {
    BusinessClock::new(None).calendar_today()
}

/// What checking an upload does: every row checked, and kept for the commit.
fn check(file: &Path, bytes: &[u8]) -> Fallible<(CheckedFile, Vec<u8>)> {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "bench.xlsx".into());
    check_file_keeping_rows(&name, bytes, TEMPLATE, KIND, today())
        .map_err(|refusal| format!("the file is refused: {refusal:?}").into())
}

/// The process's peak resident memory so far, in MB (Linux `VmHWM`).
fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn generate(out: &Path, rows: usize) -> Fallible<()> {
    let started = Instant::now();
    let bytes = sheet::registered_mandate_recurring(rows, today().year() + 1)?;
    std::fs::write(out, &bytes)?;
    println!("generate_rows={rows}");
    println!("generate_bytes={}", bytes.len());
    println!("generate_seconds={:.3}", started.elapsed().as_secs_f64());
    Ok(())
}

fn parse(file: &Path, runs: u32) -> Fallible<()> {
    let bytes = std::fs::read(file)?;
    let mut seconds = Vec::new();
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        let (found, kept_rows) = check(file, &bytes)?;
        seconds.push(started.elapsed().as_secs_f64());
        if found.invalid > 0 {
            return Err(format!(
                "{} invalid rows, first: {:?}",
                found.invalid,
                found.issues.first()
            )
            .into());
        }
        println!(
            "parse_rows={} parse_valid={} kept_rows_bytes={}",
            found.rows,
            found.valid,
            kept_rows.len()
        );
    }
    seconds.sort_by(f64::total_cmp);
    let runs: Vec<String> = seconds.iter().map(|s| format!("{s:.3}")).collect();
    println!("parse_runs_seconds={}", runs.join(","));
    println!(
        "parse_best_seconds={:.3}",
        seconds.first().copied().unwrap_or(f64::NAN)
    );
    println!("parse_median_seconds={:.3}", seconds[seconds.len() / 2]);
    println!("parse_peak_rss_mb={:.1}", peak_rss_mb());
    Ok(())
}

/// A merchant with an owner, as sign-up makes them (the password hash is
/// never used here).
async fn new_merchant(db: &Db) -> Fallible<(String, String)> {
    let account = users::NewAccount {
        name: "Bench Owner",
        email: "bench@example.co.za",
        password_hash: "unused",
        business_name: "Bench Merchant",
    };
    let user_id = users::create_account(db, account)
        .await?
        .ok_or("the bench owner exists already")?;
    let merchant_id = users::find_memberships(db, &user_id)
        .await?
        .into_iter()
        .next()
        .ok_or("sign-up made no merchant")?
        .id;
    Ok((user_id, merchant_id))
}

/// What confirming an upload writes (live/uploads.rs `confirm`): the import
/// with its file, its problems and its delta, in one transaction.
async fn confirm(
    db: &Db,
    key: &StreamKey,
    user_id: &str,
    file_name: &str,
    bytes: &[u8],
    (found, kept_rows): &(CheckedFile, Vec<u8>),
) -> Fallible<String> {
    let import = Import {
        id: new_id("imp"),
        mode: key.mode,
        kind: KIND,
        template: TEMPLATE,
        file_name: file_name.to_string(),
        status: ImportStatus::Committing,
        rows: found.rows,
        valid: found.valid,
        invalid: found.invalid,
        committed: 0,
        failed: 0,
        skipped: 0,
        include_duplicates: false,
        duplicate_of: None,
        created_by_name: "Bench Owner".into(),
        created_at: now_ms(),
        finished_at: None,
    };
    let file_sha256 = imports::file_sha256(bytes);
    let new = imports::NewImport {
        import: &import,
        file: bytes,
        file_sha256: &file_sha256,
        kept_rows,
        customer_last_rows: &found.customer_last_rows,
        checked_on: &iso_date(today()),
        created_by: user_id,
    };
    let cause = Cause::background(Actor::User {
        user_id: user_id.to_string(),
        session_id: String::new(),
    });
    stream::write(db, key, &cause, async |tx: &mut Tx, _seq| {
        imports::insert_import(tx, &key.merchant_id, &new).await?;
        imports::insert_issues(tx, &import.id, &found.issues).await?;
        let changes = vec![Change::ImportUpserted {
            import: Box::new(import.clone()),
        }];
        Ok(Work::changed(changes, ()))
    })
    .await?;
    Ok(import.id)
}

async fn count(db: &Db, sql: &str, key: &StreamKey, import_id: &str) -> Fallible<i64> {
    Ok(
        sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql.to_string()))
            .bind(&key.merchant_id)
            .bind(key.mode.as_str())
            .bind(import_id)
            .fetch_one(&db.pool)
            .await?,
    )
}

async fn commit(file: &Path, dir: &Path) -> Fallible<()> {
    let bytes = std::fs::read(file)?;
    let found = check(file, &bytes)?;
    std::fs::create_dir_all(dir)?;
    let db_path = dir.join("bench.db");
    if db_path.exists() {
        return Err(format!("{} exists: give a fresh --dir", db_path.display()).into());
    }
    // As the import job connects: checkpoints beside the batches.
    let db = Db::connect_bulk_writer(&format!("sqlite://{}", db_path.display())).await?;
    db.migrate().await?;
    let (user_id, merchant_id) = new_merchant(&db).await?;
    let key = StreamKey::new(merchant_id, Mode::Live);
    events::open_stream(&db, &key.merchant_id, key.mode).await?;
    let import_id = confirm(&db, &key, &user_id, "bench.xlsx", &bytes, &found).await?;
    drop(bytes);
    let before_mb = peak_rss_mb();

    let registry = MerchantRegistry::default();
    let started = Instant::now();
    run_import(&db, &registry, &import_id, 60_000).await?;
    let seconds = started.elapsed().as_secs_f64();

    let payments = count(
        &db,
        "SELECT COUNT(*) FROM payments WHERE merchant_id = $1 AND mode = $2 AND import_id = $3",
        &key,
        &import_id,
    )
    .await?;
    let rows = count(
        &db,
        "SELECT COUNT(DISTINCT import_row) FROM payments WHERE merchant_id = $1 AND mode = $2 AND import_id = $3",
        &key,
        &import_id,
    )
    .await?;
    let customers = count(
        &db,
        "SELECT COUNT(*) FROM customers WHERE merchant_id = $1 AND mode = $2 AND $3 <> ''",
        &key,
        &import_id,
    )
    .await?;
    let import = imports::find_import(&db.pool, &key.merchant_id, key.mode, &import_id)
        .await?
        .ok_or("the import is gone")?;
    println!("commit_rows={}", found.0.valid);
    println!("commit_seconds={seconds:.3}");
    println!(
        "commit_rows_per_second={:.0}",
        f64::from(found.0.valid) / seconds
    );
    println!("commit_payments={payments} commit_distinct_rows={rows} commit_customers={customers}");
    println!(
        "commit_status={:?} commit_committed={} commit_failed={}",
        import.status, import.committed, import.failed
    );
    println!("commit_peak_rss_before_mb={before_mb:.1}");
    println!("commit_peak_rss_mb={:.1}", peak_rss_mb());
    let expected = i64::from(found.0.valid);
    if payments != expected || rows != expected || import.status != ImportStatus::Completed {
        return Err(format!(
            "expected {expected} payments, one per row; found {payments} ({rows} rows)"
        )
        .into());
    }
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let outcome = match args.step {
        Step::Generate { out, rows } => generate(&out, rows),
        Step::Parse { file, runs } => parse(&file, runs),
        Step::Commit { file, dir } => commit(&file, &dir).await,
        Step::Live {
            file,
            url,
            every_ms,
        } => live::run(&file, &url, every_ms).await,
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("import bench: {err}");
            ExitCode::FAILURE
        }
    }
}
