//! Prometheus metrics: recorded through the `metrics` facade where things
//! happen (commands, deltas, transactions, scheduler rounds), and gauges of
//! what is open (sockets, pool connections, queues) read when scraped.
//! Served at `/metrics` only when `METRICS_TOKEN` is configured, to callers
//! that present it.

use std::sync::OnceLock;
use std::time::Instant;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use paydesk::store::{imports, mail, webhooks};
use protocol::{Command, ReplyBody, WireError};

use crate::state::AppState;

/// The bearer token that may scrape `/metrics`. Its `Debug` hides it, so a
/// logged configuration never shows it.
#[derive(Clone)]
pub struct MetricsToken(String);

impl MetricsToken {
    /// At least 16 characters: the metrics name merchants' activity, so the
    /// token must not be guessable.
    pub fn parse(value: &str) -> Result<MetricsToken, String> {
        let value = value.trim();
        if value.len() < 16 {
            return Err("METRICS_TOKEN: must be at least 16 characters".into());
        }
        Ok(MetricsToken(value.to_string()))
    }

    /// Whether `presented` is the token, compared in constant time.
    pub fn matches(&self, presented: &str) -> bool {
        use subtle::ConstantTimeEq;
        bool::from(self.0.as_bytes().ct_eq(presented.as_bytes()))
    }
}

impl std::fmt::Debug for MetricsToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MetricsToken([redacted])")
    }
}

/// Latency buckets, in seconds: from a fast commit to a writer that waited
/// out most of its turn.
const LATENCY_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// Group sizes (stream writes per SQLite transaction), up to the group limit.
const GROUP_SIZE_BUCKETS: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];

/// The process's one recorder: the facade allows one per process, and every
/// node a test starts in the process shares it.
static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the recorder (once); later calls return the same handle.
pub fn install() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), LATENCY_BUCKETS)
                .and_then(|b| {
                    b.set_buckets_for_metric(
                        Matcher::Full("paydesk_db_group_size".into()),
                        GROUP_SIZE_BUCKETS,
                    )
                });
            let installed = builder.and_then(|b| b.install_recorder());
            match installed {
                Ok(handle) => {
                    describe();
                    Some(handle)
                }
                Err(err) => {
                    tracing::error!(error = %err, "metrics are not recorded");
                    None
                }
            }
        })
        .as_ref()
}

/// Every family this server records or serves, with its `# HELP` text
/// (README.md, "Metrics", lists the same). Counters that only grow when
/// something rare happens are registered at zero, so a scrape shows them
/// from the start.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram};
    describe_gauge!("paydesk_sockets_open", "WebSockets open on this node.");
    describe_counter!(
        "paydesk_deltas_sent_total",
        "Deltas sent, times the sockets each went to."
    );
    describe_counter!(
        "paydesk_commands_total",
        "Socket commands by kind and outcome (ok, or the error code)."
    );
    describe_histogram!(
        "paydesk_command_duration_seconds",
        "Socket commands from arrival to reply, queueing included, by kind."
    );
    describe_counter!(
        "paydesk_api_requests_total",
        "Requests to /api/v1 by route template, method and status."
    );
    describe_histogram!(
        "paydesk_api_request_duration_seconds",
        "Requests to /api/v1 from arrival to answer, by route template and method."
    );
    describe_counter!(
        "paydesk_api_refusals_total",
        "API token refusals (401 and 429) on /api/v1 and /ws, by reason."
    );
    describe_gauge!(
        "paydesk_db_pool_connections",
        "Database pool connections by pool (read, write) and state (in_use, idle)."
    );
    describe_histogram!(
        "paydesk_db_transaction_seconds",
        "Write transactions from begin to end, by outcome."
    );
    describe_histogram!(
        "paydesk_db_group_size",
        "SQLite: stream writes committed per transaction."
    );
    describe_gauge!(
        "paydesk_password_hashes_peak",
        "The most password hashes computed at once since the process started."
    );
    describe_gauge!(
        "paydesk_password_hashing_capacity",
        "Password hashes this node computes at once (one per core); the rest queue."
    );
    describe_gauge!(
        "paydesk_mail_queue_depth",
        "Mail not yet sent nor given up on, over every node."
    );
    describe_gauge!(
        "paydesk_import_queue_depth",
        "Confirmed imports waiting to be committed, over every node."
    );
    describe_gauge!(
        "paydesk_webhook_queue_depth",
        "Webhook deliveries waiting for an attempt to an enabled endpoint, over every node."
    );
    describe_histogram!(
        "paydesk_scheduler_round_seconds",
        "How long each scheduler round took."
    );
    describe_gauge!(
        "paydesk_scheduler_last_round_timestamp_seconds",
        "When the scheduler's last round ended, in Unix seconds."
    );
    describe_counter!(
        "paydesk_pruned_events_total",
        "Events deleted past EVENT_RETENTION_DAYS."
    );
    describe_counter!(
        "paydesk_pruned_replies_total",
        "Stored command replies deleted past REPLY_RETENTION_HOURS."
    );
    metrics::counter!("paydesk_pruned_events_total").increment(0);
    metrics::counter!("paydesk_pruned_replies_total").increment(0);
}

/// Counts an API token refusal: `reason` is one of a fixed few (unknown,
/// revoked, expired, address_not_allowed, missing, throttled,
/// rate_limited), never anything the caller sent.
pub fn api_refusal(reason: &'static str) {
    metrics::counter!("paydesk_api_refusals_total", "reason" => reason).increment(1);
}

/// Counts one answered API request and records how long it took. `route`
/// is the endpoint's template (`/customers/{customerId}`), or `unmatched`,
/// so ids never become label values.
pub fn api_request(route: &'static str, method: &str, status: u16, started: Instant) {
    let method = match method {
        "GET" | "HEAD" | "POST" | "PUT" | "DELETE" => method.to_string(),
        _ => "other".to_string(),
    };
    metrics::counter!(
        "paydesk_api_requests_total",
        "route" => route, "method" => method.clone(), "status" => status.to_string()
    )
    .increment(1);
    metrics::histogram!("paydesk_api_request_duration_seconds", "route" => route, "method" => method)
        .record(started.elapsed().as_secs_f64());
}

/// The metrics in Prometheus's text format, with the gauges of what is open
/// read now. A gauge whose query fails is left out of this scrape (logged),
/// not reported as zero.
pub async fn render(state: &AppState) -> Option<String> {
    let handle = install()?;
    metrics::gauge!("paydesk_sockets_open").set(state.sockets.open_count() as f64);
    for (pool, open, idle) in state.db.pool_use() {
        let in_use = (open as usize).saturating_sub(idle);
        metrics::gauge!("paydesk_db_pool_connections", "pool" => pool, "state" => "in_use")
            .set(in_use as f64);
        metrics::gauge!("paydesk_db_pool_connections", "pool" => pool, "state" => "idle")
            .set(idle as f64);
    }
    metrics::gauge!("paydesk_password_hashes_peak")
        .set(paydesk::auth::password::peak_concurrent_hashes() as f64);
    metrics::gauge!("paydesk_password_hashing_capacity")
        .set(paydesk::auth::password::hashing_capacity() as f64);
    match mail::pending_count(&state.db).await {
        Ok(depth) => metrics::gauge!("paydesk_mail_queue_depth").set(depth as f64),
        Err(err) => tracing::warn!(error = %err, "metrics: cannot count the mail outbox"),
    }
    match imports::committing_count(&state.db).await {
        Ok(depth) => metrics::gauge!("paydesk_import_queue_depth").set(depth as f64),
        Err(err) => tracing::warn!(error = %err, "metrics: cannot count waiting imports"),
    }
    match webhooks::pending_count(&state.db).await {
        Ok(depth) => metrics::gauge!("paydesk_webhook_queue_depth").set(depth as f64),
        Err(err) => {
            tracing::warn!(error = %err, "metrics: cannot count waiting webhook deliveries")
        }
    }
    Some(handle.render())
}

/// A socket command's kind: the name of its variant, as the wire's `t` tag
/// spells it. Read from the start of its `Debug` text, which is cut off
/// there, so a large command (an upload) is never formatted whole.
pub fn command_kind(command: &Command) -> String {
    use std::fmt::Write;
    struct FirstWord(String);
    impl Write for FirstWord {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            for c in s.chars() {
                if !c.is_ascii_alphanumeric() {
                    return Err(std::fmt::Error);
                }
                self.0.push(c);
            }
            Ok(())
        }
    }
    let mut kind = FirstWord(String::new());
    // Stops with an error at the first character past the name, by design.
    let _ = write!(kind, "{command:?}");
    kind.0
}

/// Times one socket command from its arrival to its reply (waiting for its
/// merchant's queue included: that is what the user waits for).
pub struct CommandTimer {
    kind: String,
    started: Instant,
}

impl CommandTimer {
    pub fn start(command: &Command) -> CommandTimer {
        CommandTimer {
            kind: command_kind(command),
            started: Instant::now(),
        }
    }

    /// Counts the command by kind and outcome (`ok`, or the error's code) and records its latency.
    pub fn finish(self, result: &Result<ReplyBody, WireError>) {
        let outcome = match result {
            Ok(_) => "ok".to_string(),
            Err(error) => serde_variant::to_variant_name(&error.code)
                .unwrap_or("unknown")
                .to_string(),
        };
        metrics::counter!("paydesk_commands_total", "kind" => self.kind.clone(), "outcome" => outcome)
            .increment(1);
        metrics::histogram!("paydesk_command_duration_seconds", "kind" => self.kind)
            .record(self.started.elapsed().as_secs_f64());
    }
}
