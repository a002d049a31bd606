//! Builds the application: shared state, routes, and the HTTP server. Used by
//! `main` and by every integration test, so tests drive the real thing.

use std::net::SocketAddr;

use actix_web::{App, HttpServer, dev::ServerHandle, middleware, web};

use crate::auth::csrf::CsrfKey;
use crate::auth::throttle::Throttle;
use crate::config::Config;
use crate::error::{AppError, AppResult};
use crate::http;
use crate::live::registry::MerchantRegistry;
use crate::live::relay;
use crate::live::sockets::SocketRegistry;
use crate::store::{Backend, Db, secrets};

pub struct AppState {
    pub config: Config,
    pub db: Db,
    pub csrf: CsrfKey,
    pub throttle: Throttle,
    pub merchants: std::sync::Arc<MerchantRegistry>,
    pub sockets: SocketRegistry,
    /// Relays other nodes' deltas (PostgreSQL only); stops with the state.
    _relay: Option<relay::RelayGuard>,
}

pub type State = web::Data<AppState>;

impl AppState {
    /// The web app's build id (`build-id.txt` beside the app), sent in
    /// `Welcome`. Read each time, so a web build deployed under a running
    /// server makes older tabs reload when they reconnect.
    pub fn build_id(&self) -> String {
        std::fs::read_to_string(self.config.web_dir.join("build-id.txt"))
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "dev".into())
    }

    /// The built `index.html`, read each time for the same reason (it is small
    /// and the OS caches it).
    pub fn index_html(&self) -> Option<String> {
        std::fs::read_to_string(self.config.web_dir.join("index.html")).ok()
    }
}

/// Connects, migrates and assembles the shared state.
pub async fn build_state(config: Config) -> AppResult<State> {
    let db = Db::connect(&config.database_url).await?;
    db.migrate().await?;
    let csrf = CsrfKey::new(&secrets::server_secret(&db, "csrf").await?);
    if !config.web_dir.join("index.html").is_file() {
        tracing::warn!(web_dir = ?config.web_dir, "no built web app found: run `npm --prefix web run build`");
    }
    let merchants = std::sync::Arc::new(MerchantRegistry::default());
    let relay = (db.backend == Backend::Postgres)
        .then(|| relay::start(config.database_url.clone(), merchants.clone()));
    Ok(web::Data::new(AppState {
        config,
        db,
        csrf,
        throttle: Throttle::new(),
        merchants,
        _relay: relay,
        sockets: SocketRegistry::default(),
    }))
}

/// Binds and starts the server; returns its handle and the bound address
/// (tests bind port 0). The caller drives the returned server future.
pub async fn start(
    config: Config,
) -> AppResult<(actix_web::dev::Server, ServerHandle, SocketAddr)> {
    let bind = config.bind.clone();
    let auth_base_path = config.auth_base_path.clone();
    let state = build_state(config).await?;
    let server = HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            .wrap(middleware::Logger::new("%r %s %Dms").exclude("/ws"))
            .configure(|cfg| http::routes(cfg, &auth_base_path))
    })
    // Sockets are long-lived; shutdown gives them a short grace period only.
    .shutdown_timeout(5)
    .bind(&bind)
    .map_err(|e| AppError::Internal(format!("BIND: cannot listen on {bind}: {e}")))?;
    let addr = server
        .addrs()
        .first()
        .copied()
        .ok_or_else(|| AppError::Internal("no bound address".into()))?;
    let server = server.run();
    let handle = server.handle();
    Ok((server, handle, addr))
}
