//! Builds the application: shared state, routes, and the HTTP server. Used by
//! `main` and by every integration test, so tests drive the real thing.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

use actix_web::{App, HttpServer, dev::ServerHandle, middleware, web};

use crate::config::Config;
use crate::http;
use crate::jobs::imports::{self, ImportQueue};
use crate::jobs::mail::{self, MailSettings};
use crate::jobs::retention::{self, RetentionSettings};
use crate::jobs::scheduler::{self, SchedulerSettings};
use crate::jobs::spawn_job;
use crate::jobs::webhooks::{self, WebhookSettings};
use crate::live::registry::MerchantRegistry;
use crate::live::relay;
use crate::live::sockets::SocketRegistry;
use crate::live::uploads::Uploads;
use crate::secret_key;
use paydesk::auth::csrf::CsrfKey;
use paydesk::auth::keys::Keys;
use paydesk::auth::throttle::Throttle;
use paydesk::domain::clock::BusinessClock;
use paydesk::domain::secrets_at_rest;
use paydesk::error::{AppError, AppResult};
use paydesk::store::{Backend, Db, secrets};

use crate::state::{AppState, State};

/// Connects, migrates and assembles the shared state, and starts the
/// background jobs that live as long as it does.
pub async fn build_state(config: Config) -> AppResult<State> {
    // Before anything records: the facade drops what arrives before a recorder.
    crate::metrics::install();
    // Prices are fixed for the life of the process (see `fees::install`).
    paydesk::domain::fees::install(config.fee_schedule()).map_err(AppError::Internal)?;
    let write_wait = Duration::from_secs(config.database_write_wait_seconds.max(1));
    let db = Db::connect_waiting(&config.database_url, write_wait).await?;
    db.migrate().await?;
    let csrf = CsrfKey::new(&secrets::server_secret(&db, "csrf").await?);
    let server_key = secret_key::load_or_create(&config)?;
    secrets_at_rest::check_server_key(&db, &server_key).await?;
    let keys = Keys::derive(&server_key);
    paydesk::store::mail::install_sealer(keys.mail.clone());
    let upgraded = secrets_at_rest::upgrade_weak_secrets(&db, &keys).await?;
    if upgraded != Default::default() {
        tracing::info!(
            backup_codes = upgraded.backup_codes,
            totp_secrets = upgraded.totp_secrets,
            "stored secrets upgraded to the keyed and sealed forms"
        );
    }
    if !config.web_dir.join("index.html").is_file() {
        tracing::warn!(web_dir = ?config.web_dir, "no built web app found: run `npm --prefix web run build`");
    }
    let clock = BusinessClock::new(config.business_date);
    let merchants = Arc::new(MerchantRegistry::new(config.public_origin()).linked(&db));
    let mut jobs = Vec::new();
    if db.backend == Backend::Postgres {
        let (url, registry) = (config.database_url.clone(), merchants.clone());
        jobs.push(spawn_job("delta-relay", move || async move {
            relay::listen(&url, &registry).await
        }));
    }
    let mail = MailSettings {
        database_url: config.database_url.clone(),
        mail_dir: config.mail_dir.clone(),
        smtp_url: config.smtp_url.clone(),
        from: config.mail_from.clone(),
    };
    jobs.push(spawn_job("mail", move || mail::deliver_forever(mail)));
    let hooks = WebhookSettings {
        database_url: config.database_url.clone(),
        sealer: keys.webhooks.clone(),
        allow_private: config.webhooks_allow_private_addresses,
        timeout: Duration::from_secs(config.webhook_timeout_seconds.max(1)),
        public_origin: config.public_origin(),
        clock: config.webhook_clock.clone(),
        merchants: merchants.clone(),
    };
    jobs.push(spawn_job("webhooks", move || {
        webhooks::deliver_forever(hooks)
    }));
    let every = Duration::from_secs(config.scheduler_interval_seconds.max(1));
    let schedule = SchedulerSettings {
        database_url: config.database_url.clone(),
        registry: merchants.clone(),
        clock,
        every,
        // Renewed every round: a lease outlives a slow round or two.
        lease: Duration::from_secs(config.scheduler_lease_seconds.max(1)).max(every * 2),
        origin: config.public_origin(),
    };
    jobs.push(spawn_job("scheduler", move || {
        scheduler::run_forever(schedule)
    }));
    let (import_queue, waiting) = ImportQueue::new();
    let (url, registry) = (config.database_url.clone(), merchants.clone());
    let lease = Duration::from_secs(config.import_lease_seconds.max(1));
    jobs.push(spawn_job("imports", move || {
        imports::run_forever(url, registry, waiting, lease)
    }));
    let retention = RetentionSettings {
        database_url: config.database_url.clone(),
        event_retention: Duration::from_secs(config.event_retention_days * 24 * 3600),
        reply_retention: Duration::from_secs(config.reply_retention_hours * 3600),
        every: Duration::from_secs(config.retention_interval_seconds.max(1)),
        clock: config.retention_clock.clone(),
    };
    jobs.push(spawn_job("retention", move || {
        retention::prune_forever(retention)
    }));
    let sockets = Arc::new(SocketRegistry::new(config.sockets_per_user));
    let (url, registry) = (config.database_url.clone(), sockets.clone());
    let every = Duration::from_secs(config.session_recheck_seconds.max(1));
    jobs.push(spawn_job("session-recheck", move || {
        crate::live::sockets::recheck_forever(url, registry, every)
    }));
    let registry = sockets.clone();
    jobs.push(spawn_job("heartbeat", move || {
        crate::live::sockets::heartbeat_forever(registry)
    }));
    let openings = config.socket_openings_at_once as usize;
    Ok(web::Data::new(AppState {
        config,
        db,
        clock,
        csrf,
        keys,
        throttle: Throttle::new(),
        merchants,
        sockets,
        openings: Arc::new(Semaphore::new(openings)),
        uploads: Uploads::default(),
        imports: import_queue,
        api: Default::default(),
        _jobs: jobs,
    }))
}

/// Headers on every answer: no framing, no sniffing, a strict content policy.
/// `report_origin` is where the web app posts its error reports, if anywhere.
fn security_headers(report_origin: Option<&str>) -> middleware::DefaultHeaders {
    let connect = match report_origin {
        Some(origin) => format!("'self' {origin}"),
        None => "'self'".into(),
    };
    middleware::DefaultHeaders::new()
        .add((
            "Content-Security-Policy",
            format!(
                "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src {connect}; \
                 frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"
            ),
        ))
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("X-Frame-Options", "DENY"))
        .add(("Referrer-Policy", "no-referrer"))
}

/// Stops a running node. `main` calls it on SIGTERM, tests call it directly:
/// one shutdown path.
#[derive(Clone)]
pub struct NodeHandle {
    server: ServerHandle,
    state: State,
}

impl NodeHandle {
    /// Graceful: every socket is closed with 1001 (going away), so browsers
    /// reconnect at once instead of seeing a cut connection; each merchant
    /// actor finishes the command in hand; then the server stops accepting
    /// and waits for what is left. Not graceful: connections are cut.
    pub async fn stop(&self, graceful: bool) {
        if graceful {
            self.state.sockets.close_all_for_shutdown();
            // While the workers' runtimes still run: a database connection
            // dropped after they are gone panics for want of a Tokio context.
            self.state.merchants.stop_all().await;
        }
        self.server.stop(graceful).await;
    }
}

/// Stops the node on SIGTERM or SIGINT (gracefully) or SIGQUIT (at once): the
/// signal handling actix-web would do, with the sockets closed properly.
pub async fn stop_on_signal(node: NodeHandle) {
    use actix_web::rt::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int), Ok(mut quit)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
        signal(SignalKind::quit()),
    ) else {
        tracing::error!("cannot listen for signals; stop the server with SIGKILL");
        return;
    };
    let graceful = tokio::select! {
        _ = term.recv() => true,
        _ = int.recv() => true,
        _ = quit.recv() => false,
    };
    tracing::info!(graceful, "shutting down");
    node.stop(graceful).await;
}

/// Binds and starts the server; returns its handle and the bound address
/// (tests bind port 0). The caller drives the returned server future.
pub async fn start(
    mut config: Config,
) -> AppResult<(actix_web::dev::Server, NodeHandle, SocketAddr)> {
    let bind = config.bind.clone();
    let listener = std::net::TcpListener::bind(&bind)
        .map_err(|e| AppError::Internal(format!("BIND: cannot listen on {bind}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| AppError::Internal(format!("BIND: {e}")))?;
    // Links in mail need an origin; without PUBLIC_URL it is the address we listen on.
    config
        .public_url
        .get_or_insert_with(|| format!("http://{addr}"));
    let auth_base_path = config.auth_base_path.clone();
    if let Some(error) = http::auth_base_path_error(&auth_base_path) {
        return Err(AppError::Internal(error));
    }
    let report_origin = config.sentry_dsn.as_ref().map(|dsn| dsn.origin());
    let state = build_state(config).await?;
    let app_state = state.clone();
    let server = HttpServer::new(move || {
        App::new()
            .app_data(app_state.clone())
            // Gzip or Brotli when the client accepts it: the app's scripts and the pay page
            // travel to payers on costly mobile data. Socket upgrades (101) pass untouched.
            .wrap(middleware::Compress::default())
            .wrap(security_headers(report_origin.as_deref()))
            .wrap(middleware::from_fn(http::access_log::log_request))
            .configure(|cfg| http::routes(cfg, &auth_base_path))
    })
    // Sockets are closed by `NodeHandle::stop` first; what is left gets a short grace period.
    .shutdown_timeout(5)
    // `stop_on_signal` handles signals, so sockets are closed with 1001, not cut.
    .disable_signals()
    // Deltas are small frames that must leave at once, not wait for Nagle's algorithm.
    .tcp_nodelay(true)
    .listen(listener)
    .map_err(|e| AppError::Internal(format!("BIND: cannot listen on {bind}: {e}")))?
    .run();
    let handle = NodeHandle {
        server: server.handle(),
        state,
    };
    Ok((server, handle, addr))
}
