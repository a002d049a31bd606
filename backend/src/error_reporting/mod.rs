//! Error reporting to a Sentry-compatible service, when `SENTRY_DSN` is set:
//! every error the server logs (internal errors of requests and commands,
//! failed background work) and every panic becomes an event, with the
//! request's method and redacted path or the command's kind as context.
//! Off (nothing recorded, nothing sent) when the DSN is unset.
//!
//! Events are posted by a thread of their own from a small queue: a
//! reporting service that is slow or down never holds a request up, and
//! what does not fit the queue is dropped (and counted in the log).

mod envelope;
mod layer;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::time::{Duration, Instant};

pub use envelope::{Context, Dsn, Report, redact_path};
pub use layer::ReportingLayer;

/// Events waiting to be posted before new ones are dropped.
const QUEUE: usize = 256;

struct Reporter {
    dsn: Dsn,
    queue: SyncSender<Vec<u8>>,
    /// Events queued and not yet posted (or given up on).
    pending: AtomicUsize,
}

static REPORTER: OnceLock<Reporter> = OnceLock::new();

/// Whether reports are being sent: spans carrying context are only made then.
pub fn enabled() -> bool {
    REPORTER.get().is_some()
}

/// Starts reporting to `dsn` for the rest of the process: the sending
/// thread and the panic hook. Errors logged through `tracing` reach it
/// through [`ReportingLayer`], which the process's subscriber carries.
pub fn install(dsn: Dsn) {
    let (queue, waiting) = sync_channel(QUEUE);
    let reporter = Reporter {
        dsn: dsn.clone(),
        queue,
        pending: AtomicUsize::new(0),
    };
    if REPORTER.set(reporter).is_err() {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("error-reports".into())
        .spawn(move || post_forever(dsn, waiting));
    if let Err(err) = spawned {
        tracing::warn!(error = %err, "cannot start error reporting");
        return;
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        report_panic(info);
        previous(info);
    }));
}

fn report_panic(info: &std::panic::PanicHookInfo<'_>) {
    let message = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into());
    let culprit = info
        .location()
        .map(|l| format!("{}:{}", l.file(), l.line()))
        .unwrap_or_default();
    send(Report {
        level: "fatal",
        message: format!("panic: {message}"),
        error: Some(message),
        culprit,
        context: layer::current_context(),
    });
    // The process may be about to end: give the event a moment to leave.
    flush(Duration::from_secs(2));
}

/// Queues one report; dropped when reporting is off or the queue is full.
pub fn send(report: Report) {
    let Some(reporter) = REPORTER.get() else {
        return;
    };
    let event_id = paydesk::ids::hash_secret(&paydesk::ids::new_secret())[..32].to_string();
    let timestamp = paydesk::ids::now_ms() as f64 / 1000.0;
    let body = envelope::envelope(&reporter.dsn, &report, &event_id, timestamp);
    reporter.pending.fetch_add(1, Ordering::SeqCst);
    match reporter.queue.try_send(body) {
        Ok(()) => {}
        Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
            reporter.pending.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Waits up to `wait` for the queued reports to be posted.
pub fn flush(wait: Duration) {
    let Some(reporter) = REPORTER.get() else {
        return;
    };
    let deadline = Instant::now() + wait;
    while reporter.pending.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn post_forever(dsn: Dsn, waiting: Receiver<Vec<u8>>) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => return tracing::warn!(error = %err, "error reporting has no runtime"),
    };
    let client = match reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
    {
        Ok(client) => client,
        Err(err) => return tracing::warn!(error = %err, "error reporting has no client"),
    };
    while let Ok(body) = waiting.recv() {
        let posted = runtime.block_on(async {
            client
                .post(dsn.envelope_url())
                .header("content-type", "application/x-sentry-envelope")
                .header("x-sentry-auth", dsn.auth_header())
                .body(body)
                .send()
                .await
        });
        // A warning, not an error: an error would be reported in turn.
        match posted {
            Ok(answer) if answer.status().is_success() => {}
            Ok(answer) => tracing::warn!(status = %answer.status(), "error report refused"),
            Err(err) => tracing::warn!(error = %err, "cannot send an error report"),
        }
        if let Some(reporter) = REPORTER.get() {
            reporter.pending.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// A span naming the HTTP request errors inside it happened in, or none
/// when reporting is off. `path` has had its known secrets redacted (the
/// access log's rule); ids and tokens left in it are redacted here.
pub fn request_span(method: &str, path: &str) -> tracing::Span {
    if enabled() {
        tracing::error_span!("request", method = %method, path = %redact_path(path))
    } else {
        tracing::Span::none()
    }
}

/// A span naming the socket command errors inside it happened in.
pub fn command_span(kind: &str) -> tracing::Span {
    if enabled() {
        tracing::error_span!("command", command = %kind)
    } else {
        tracing::Span::none()
    }
}
