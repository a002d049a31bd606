use backend::app;
use backend::config::Config;
use backend::store::Db;
use clap::{Parser, Subcommand};

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
}

#[actix_web::main]
async fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .init();
    let result = match Cli::parse().command {
        Command::Serve(config) => serve(*config).await,
        Command::Migrate { database_url } => migrate(&database_url).await,
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
    let (server, _handle, addr) = app::start(config).await.map_err(|e| e.to_string())?;
    println!("Serving the dashboard on http://{addr}");
    server.await.map_err(|e| e.to_string())
}

async fn migrate(database_url: &str) -> Result<(), String> {
    let db = Db::connect(database_url).await.map_err(|e| e.to_string())?;
    db.migrate().await.map_err(|e| e.to_string())?;
    println!("Migrations applied to {database_url}");
    Ok(())
}
