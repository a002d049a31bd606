use std::path::PathBuf;

use backend::app;
use backend::config::{Config, parse_business_date};
use clap::{Parser, Subcommand, ValueEnum};
use paydesk::domain::clock::BusinessClock;
use paydesk::domain::imports::cli;
use paydesk::store::Db;
use protocol::{ImportTemplate, PaymentKind};

/// mimalloc, not glibc's allocator: glibc's `malloc` and `free` were the
/// largest items of the group-commit writer's own code in a profile at 800
/// commands/s, and with mimalloc the server took less CPU and idle sockets
/// less memory (`loadtest/figures/04-sync-and-allocator.md`). Built
/// without its requests for huge pages (`no_thp`), which cost 8 KiB more per
/// idle socket.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "backend", about = "Payments dashboard server")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run migrations, then serve the web app, authentication and the live socket.
    Serve(Box<Config>),
    /// Run the database migrations and exit.
    Migrate {
        #[arg(
            long = "database",
            env = "DATABASE_URL",
            default_value = "sqlite://data/dashboard.db"
        )]
        database_url: String,
    },
    /// Spreadsheet imports.
    #[command(subcommand)]
    Import(ImportCommand),
}

#[derive(Subcommand)]
enum ImportCommand {
    /// Checks a file against a template with no server and prints JSON:
    /// exit 0 when every row is valid, 1 when some are not, 2 when the file
    /// is refused.
    Check {
        #[arg(long, value_enum)]
        template: TemplateArg,
        #[arg(long, value_enum)]
        kind: KindArg,
        /// Dates before this one are in the past; today in South Africa by default.
        #[arg(long, env = "BUSINESS_DATE", value_parser = parse_business_date)]
        business_date: Option<time::Date>,
        file: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
#[value(rename_all = "snake_case")]
enum TemplateArg {
    Debicheck,
    RegisteredMandate,
    EftDebitOrder,
}

#[derive(Clone, Copy, ValueEnum)]
enum KindArg {
    Once,
    Recurring,
}

fn import_check(
    template: TemplateArg,
    kind: KindArg,
    business_date: Option<time::Date>,
    file: &std::path::Path,
) -> std::process::ExitCode {
    let template = match template {
        TemplateArg::Debicheck => ImportTemplate::Debicheck,
        TemplateArg::RegisteredMandate => ImportTemplate::RegisteredMandate,
        TemplateArg::EftDebitOrder => ImportTemplate::EftDebitOrder,
    };
    let kind = match kind {
        KindArg::Once => PaymentKind::Once,
        KindArg::Recurring => PaymentKind::Recurring,
    };
    let today = BusinessClock::new(business_date).calendar_today();
    cli::run(file, template, kind, today)
}

#[actix_web::main]
async fn main() -> std::process::ExitCode {
    // Logs, the spreadsheet reader's warnings among them, go to standard
    // error: standard output carries only what a command promises (the JSON
    // of `import check`). Colours only on a terminal: a container's or a
    // service manager's log keeps plain text.
    use std::io::IsTerminal;
    use tracing_subscriber::prelude::*;
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(std::io::stderr().is_terminal()),
        )
        // Reports errors when `serve` turns reporting on (SENTRY_DSN).
        .with(backend::error_reporting::layer())
        .init();
    let result = match Cli::parse().command {
        Command::Serve(config) => serve(*config).await,
        Command::Migrate { database_url } => migrate(&database_url).await,
        Command::Import(ImportCommand::Check {
            template,
            kind,
            business_date,
            file,
        }) => return import_check(template, kind, business_date, &file),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn serve(config: Config) -> Result<(), String> {
    if let Some(dsn) = config.sentry_dsn.clone() {
        backend::error_reporting::install(dsn, &config.public_origin());
    }
    let (server, handle, addr) = app::start(config).await.map_err(|e| e.to_string())?;
    actix_web::rt::spawn(app::stop_on_signal(handle));
    println!("Serving the dashboard on http://{addr}");
    server.await.map_err(|e| e.to_string())
}

async fn migrate(database_url: &str) -> Result<(), String> {
    let db = Db::connect(database_url).await.map_err(|e| e.to_string())?;
    db.migrate().await.map_err(|e| e.to_string())?;
    println!("Migrations applied to {database_url}");
    Ok(())
}
