//! One typed configuration: command-line flags override the environment,
//! which overrides the defaults below.

use std::path::PathBuf;

use clap::Args;
use paydesk::auth::keys::ServerKey;

use crate::delivery_clock::DeliveryClock;
use crate::metrics::MetricsToken;
use crate::secret_key::SecretKeyParser;

#[derive(Args, Debug, Clone)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,

    /// `sqlite://PATH` (the embedded default, created when missing) or `postgres://...`.
    #[arg(
        long = "database",
        env = "DATABASE_URL",
        default_value = "sqlite://data/dashboard.db"
    )]
    pub database_url: String,

    /// How long a write waits for the database (SQLite: its turn at the
    /// file) before the user is told the system is busy and to try again.
    #[arg(long, env = "DATABASE_WRITE_WAIT_SECONDS", default_value_t = 30)]
    pub database_write_wait_seconds: u64,

    /// Folder of the built web app (`npm run build` in web/).
    #[arg(long, env = "WEB_DIR", default_value = "web/dist")]
    pub web_dir: PathBuf,

    /// The public origin of this server, e.g. `https://pay.example.co.za`. Links in
    /// mail are built from it, never from a request's Host header. Defaults to
    /// `http://<bind>`.
    #[arg(long, env = "PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Extra origins allowed to open the socket, comma-separated. The server's
    /// own origin (from PUBLIC_URL, or the request's Host) is always allowed.
    #[arg(long, env = "ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,

    /// Base path of the authentication endpoints.
    #[arg(long, env = "AUTH_BASE_PATH", default_value = "/api/auth")]
    pub auth_base_path: String,

    /// The server key: 32 bytes as 64 hex digits or base64 (`openssl rand -hex 32`).
    /// Two-factor secrets are encrypted and backup codes keyed with keys derived
    /// from it. Unset, a key is generated once into `data/secret.key`. Every node
    /// of one database needs the same key; its value is never shown or logged.
    #[arg(long, env = "SECRET_KEY", value_parser = SecretKeyParser, hide_env_values = true)]
    pub secret_key: Option<ServerKey>,

    /// Where the generated key is kept when `SECRET_KEY` is not set. Not a flag
    /// (set `SECRET_KEY` to keep the key elsewhere); tests point it at their own folder.
    #[arg(skip = PathBuf::from("data/secret.key"))]
    pub secret_key_file: PathBuf,

    /// Header that may carry the CSRF token instead of the form field.
    #[arg(long, env = "CSRF_HEADER", default_value = "x-csrf-token")]
    pub csrf_header: String,

    /// How long a session lasts without being used, in seconds (default 30 days).
    #[arg(long, env = "SESSION_TTL_SECONDS", default_value_t = 30 * 24 * 3600)]
    pub session_ttl_seconds: i64,

    /// Sign-in failures allowed per account within 15 minutes before refusing.
    /// Counted in the database (every node refuses alike); the owner is mailed
    /// once per lockout, and a completed password reset lifts it.
    #[arg(long, env = "SIGNIN_LIMIT_PER_ACCOUNT", default_value_t = 10)]
    pub signin_limit_per_account: u32,

    /// Sign-in failures allowed per client address within 15 minutes.
    #[arg(long, env = "SIGNIN_LIMIT_PER_ADDRESS", default_value_t = 50)]
    pub signin_limit_per_address: u32,

    /// Where outgoing mail is written as `.eml` files when no SMTP server is set.
    #[arg(long, env = "MAIL_DIR", default_value = "data/mail")]
    pub mail_dir: PathBuf,

    /// SMTP server for outgoing mail, e.g. `smtps://user:pass@smtp.example.co.za:465`.
    #[arg(long, env = "SMTP_URL")]
    pub smtp_url: Option<String>,

    /// The sender of outgoing mail.
    #[arg(
        long,
        env = "MAIL_FROM",
        default_value = "Paydesk <no-reply@paydesk.invalid>"
    )]
    pub mail_from: String,

    /// Sign-ups allowed per client address within 15 minutes.
    #[arg(long, env = "SIGNUP_LIMIT_PER_ADDRESS", default_value_t = 30)]
    pub signup_limit_per_address: u32,

    /// Pins the calendar to this business date (`YYYY-MM-DD`) instead of
    /// today's date in South Africa: for demos and tests that need a known
    /// calendar. Test mode's clock moves on from it.
    #[arg(long, env = "BUSINESS_DATE", value_parser = parse_business_date)]
    pub business_date: Option<time::Date>,

    /// Card fee: percent plus rands (`2.95%+2.00`), a percent (`2%`) or rands (`9.00`).
    #[arg(long, env = "FEE_CARD", default_value = "2.95%+2.00", value_parser = parse_fee_setting)]
    pub fee_card: paydesk::domain::ledger::Fee,

    /// Pay-by-bank (instant EFT) fee, written as `FEE_CARD`.
    #[arg(long, env = "FEE_INSTANT_EFT", default_value = "2%", value_parser = parse_fee_setting)]
    pub fee_instant_eft: paydesk::domain::ledger::Fee,

    /// DebiCheck fee per collection, written as `FEE_CARD`.
    #[arg(long, env = "FEE_DEBICHECK", default_value = "9.00", value_parser = parse_fee_setting)]
    pub fee_debicheck: paydesk::domain::ledger::Fee,

    /// Registered Mandate fee per collection, written as `FEE_CARD`.
    #[arg(long, env = "FEE_REGISTERED_MANDATE", default_value = "6.00", value_parser = parse_fee_setting)]
    pub fee_registered_mandate: paydesk::domain::ledger::Fee,

    /// EFT debit order fee per collection, written as `FEE_CARD`.
    #[arg(long, env = "FEE_EFT_DEBIT_ORDER", default_value = "4.00", value_parser = parse_fee_setting)]
    pub fee_eft_debit_order: paydesk::domain::ledger::Fee,

    /// The fee of one payout, in rands (`3.50`).
    #[arg(long, env = "FEE_PAYOUT", default_value = "3.50", value_parser = parse_payout_fee_setting)]
    pub fee_payout_cents: i64,

    /// How often the scheduler looks for due collections, in seconds.
    #[arg(long, env = "SCHEDULER_INTERVAL_SECONDS", default_value_t = 30)]
    pub scheduler_interval_seconds: u64,

    /// How long a node's claim on a stream's scheduling lasts unrenewed
    /// (at least twice the interval); past it, another node's scheduler
    /// takes the stream over.
    #[arg(long, env = "SCHEDULER_LEASE_SECONDS", default_value_t = 90)]
    pub scheduler_lease_seconds: u64,

    /// How often, in seconds, the sessions behind this node's sockets are
    /// re-checked (one query for all of them), so a sign-out on another node
    /// or an expiry closes the sockets here too.
    #[arg(long, env = "SESSION_RECHECK_SECONDS", default_value_t = 30)]
    pub session_recheck_seconds: u64,

    /// How long a node's claim on a confirmed import lasts without a batch
    /// written; past it, any node's import job takes the import over.
    #[arg(long, env = "IMPORT_LEASE_SECONDS", default_value_t = 60)]
    pub import_lease_seconds: u64,

    /// Days events are kept: a tab resuming from further back is told to
    /// resync. The account history is kept apart and is not pruned.
    #[arg(long, env = "EVENT_RETENTION_DAYS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub event_retention_days: u64,

    /// Hours command replies are kept, so a retried command (or API
    /// idempotency key) gets its first answer; at least 24, the API's window.
    #[arg(long, env = "REPLY_RETENTION_HOURS", default_value_t = 48, value_parser = clap::value_parser!(u64).range(24..))]
    pub reply_retention_hours: u64,

    /// How often, in seconds, one node prunes what is past its retention.
    #[arg(long, env = "RETENTION_INTERVAL_SECONDS", default_value_t = 3600)]
    pub retention_interval_seconds: u64,

    /// Sockets one user may hold open on this node, over all their sessions
    /// (one per tab); the next one is closed with 4002.
    #[arg(long, env = "SOCKETS_PER_USER", default_value_t = 20)]
    pub sockets_per_user: usize,

    /// Sockets opening at once whose look-ups (session, user, memberships)
    /// run at the same time on this node; the others wait their turn. After
    /// a restart every tab reconnects at once: this keeps them from taking
    /// every core and database connection from the merchants at work.
    #[arg(long, env = "SOCKET_OPENINGS_AT_ONCE", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub socket_openings_at_once: u32,

    /// Frames a socket may send per second on average; beyond the budget it
    /// is closed with 1008.
    #[arg(long, env = "SOCKET_FRAMES_PER_SECOND", default_value_t = 100)]
    pub socket_frames_per_second: u32,

    /// Frames a socket may send at once before the per-second rate applies.
    #[arg(long, env = "SOCKET_FRAME_BURST", default_value_t = 1_000)]
    pub socket_frame_burst: u32,

    /// Lets webhook endpoints point at loopback, private and link-local
    /// addresses: for on-premises installs whose receivers are on the
    /// local network (and for tests). Off, such addresses are refused.
    #[arg(
        long,
        env = "WEBHOOKS_ALLOW_PRIVATE_ADDRESSES",
        default_value_t = false
    )]
    pub webhooks_allow_private_addresses: bool,

    /// Requests one API token may make per minute on `/api/v1` (a burst of
    /// that many, refilled evenly); past it the answer is 429 with
    /// `Retry-After`.
    #[arg(long, env = "API_REQUESTS_PER_MINUTE", default_value_t = 600)]
    pub api_requests_per_minute: u32,

    /// Failed API token authentications one client address may make per
    /// minute on `/api/v1` and `/ws` (a burst of that many, refilled
    /// evenly); past it, tokens not yet seen to work from that address are
    /// answered 429 with `Retry-After` without being checked.
    #[arg(long, env = "API_TOKEN_FAILURES_PER_MINUTE", default_value_t = 10)]
    pub api_token_failures_per_minute: u32,

    /// How long one webhook attempt may take, in seconds, before it counts
    /// as failed.
    #[arg(long, env = "WEBHOOK_TIMEOUT_SECONDS", default_value_t = 15)]
    pub webhook_timeout_seconds: u64,

    /// The webhook delivery job's clock; tests move it ahead to play retries.
    #[arg(skip)]
    pub webhook_clock: DeliveryClock,
    /// The time team invites are made and judged by; tests move it ahead
    /// to play an invite's seven days out.
    #[arg(skip)]
    pub invite_clock: paydesk::domain::teams::InviteClock,
    /// The time pruning judges age by; tests set it to play a window out.
    #[arg(skip)]
    pub retention_clock: crate::jobs::retention::RetentionClock,
    /// The bearer token Prometheus presents to scrape `/metrics`, at least
    /// 16 characters (`openssl rand -hex 16`). Unset, `/metrics` is not
    /// served. Never shown or logged.
    #[arg(long, env = "METRICS_TOKEN", value_parser = MetricsToken::parse, hide_env_values = true)]
    pub metrics_token: Option<MetricsToken>,

    /// Where errors and panics are reported: a Sentry-compatible DSN,
    /// `https://KEY@HOST/PROJECT`. The web app is given it too and reports
    /// its own. Unset, nothing is reported.
    #[arg(long, env = "SENTRY_DSN", value_parser = crate::error_reporting::Dsn::parse)]
    pub sentry_dsn: Option<crate::error_reporting::Dsn>,
}

pub fn parse_business_date(value: &str) -> Result<time::Date, String> {
    paydesk::domain::calendar::parse_iso_date(value)
        .ok_or_else(|| format!("BUSINESS_DATE: {value:?} is not a date as YYYY-MM-DD"))
}

pub fn parse_fee_setting(value: &str) -> Result<paydesk::domain::ledger::Fee, String> {
    paydesk::domain::fees::parse_fee(value)
}

pub fn parse_payout_fee_setting(value: &str) -> Result<i64, String> {
    paydesk::domain::fees::parse_rands(value)
        .ok_or_else(|| format!("{value:?} is not an amount in rands such as 3.50"))
}

impl Config {
    /// The prices the settings choose, for `fees::install`.
    pub fn fee_schedule(&self) -> paydesk::domain::fees::FeeSchedule {
        paydesk::domain::fees::FeeSchedule {
            card: self.fee_card,
            instant_eft: self.fee_instant_eft,
            debicheck: self.fee_debicheck,
            registered_mandate: self.fee_registered_mandate,
            eft_debit_order: self.fee_eft_debit_order,
            payout_cents: self.fee_payout_cents,
        }
    }

    /// Whether cookies get the `Secure` flag: only when served over https.
    pub fn secure_cookies(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|url| url.starts_with("https://"))
    }

    /// The public origin links are built from: `PUBLIC_URL`, or `http://<bind>`.
    pub fn public_origin(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => format!("http://{}", self.bind),
        }
    }

    pub fn auth_path(&self, tail: &str) -> String {
        format!("{}{}", self.auth_base_path.trim_end_matches('/'), tail)
    }

    /// A configuration for tests and tools: defaults with the given database.
    pub fn for_database(database_url: &str) -> Config {
        let defaults = paydesk::domain::fees::FeeSchedule::default();
        Config {
            bind: "127.0.0.1:0".into(),
            database_url: database_url.into(),
            database_write_wait_seconds: 30,
            web_dir: PathBuf::from("web/dist"),
            public_url: None,
            allowed_origins: Vec::new(),
            auth_base_path: "/api/auth".into(),
            csrf_header: "x-csrf-token".into(),
            secret_key: None,
            secret_key_file: PathBuf::from("data/secret.key"),
            session_ttl_seconds: 30 * 24 * 3600,
            signin_limit_per_account: 10,
            signin_limit_per_address: 50,
            signup_limit_per_address: 30,
            mail_dir: PathBuf::from("data/mail"),
            smtp_url: None,
            mail_from: "Paydesk <no-reply@paydesk.invalid>".into(),
            business_date: None,
            fee_card: defaults.card,
            fee_instant_eft: defaults.instant_eft,
            fee_debicheck: defaults.debicheck,
            fee_registered_mandate: defaults.registered_mandate,
            fee_eft_debit_order: defaults.eft_debit_order,
            fee_payout_cents: defaults.payout_cents,
            scheduler_interval_seconds: 30,
            scheduler_lease_seconds: 90,
            session_recheck_seconds: 30,
            import_lease_seconds: 60,
            event_retention_days: 30,
            reply_retention_hours: 48,
            retention_interval_seconds: 3600,
            sockets_per_user: 20,
            socket_openings_at_once: 1,
            socket_frames_per_second: 100,
            socket_frame_burst: 1_000,
            webhooks_allow_private_addresses: false,
            webhook_timeout_seconds: 15,
            api_requests_per_minute: 600,
            api_token_failures_per_minute: 10,
            webhook_clock: DeliveryClock::default(),
            invite_clock: Default::default(),
            retention_clock: Default::default(),
            metrics_token: None,
            sentry_dsn: None,
        }
    }
}
