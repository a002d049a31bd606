//! Error reporting to a Sentry-compatible service, when `SENTRY_DSN` is set:
//! every error the server logs (internal errors of requests and commands,
//! failed background work) and every panic becomes an event, with the
//! request's method and redacted path or the command's kind as context.
//! Off (nothing recorded, nothing sent) when the DSN is unset.
//!
//! The `sentry` client does the work: its tracing layers turn logged errors
//! into events and keep the context of our request and command spans, its
//! panic integration reports panics as fatal, and its transport posts from
//! a thread of its own through a bounded queue, so a reporting service that
//! is slow or down never holds a request up (what does not fit is dropped).
//! What an event may carry is decided in one place: [`scrub::before_send`].

mod dsn;
mod scrub;

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sentry::integrations::panic::PanicIntegration;
use sentry::integrations::tracing::{ErrorLayer, SpanLayer};
use sentry::transports::UreqHttpTransportOptions;
use sentry::{ClientOptions, TransportFactory, TransportOptions};
use tracing_subscriber::Layer;
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::registry::LookupSpan;

pub use dsn::Dsn;
pub use scrub::redact_path;

/// Events waiting to be posted before new ones are dropped.
const QUEUE: usize = 256;

/// How long one post may take before the next report gets its turn.
const POST_TIMEOUT: Duration = Duration::from_secs(10);

/// The target of the spans below: the only spans the reporting layers read.
const SPANS: &str = module_path!();

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Whether reports are being sent: spans carrying context are only made then.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Starts reporting to `dsn` for the rest of the process: the client and
/// its panic hook. Errors logged through `tracing` reach it through
/// [`layer`], which the process's subscriber carries. `public_origin` makes
/// the reported request URLs absolute.
pub fn install(dsn: Dsn, public_origin: &str) {
    if ENABLED.swap(true, Ordering::SeqCst) {
        return;
    }
    let origin = public_origin.trim_end_matches('/').to_string();
    let mut options = ClientOptions::new();
    options.dsn = Some(dsn.parsed().clone());
    options.release = Some(concat!("paydesk@", env!("CARGO_PKG_VERSION")).into());
    options.send_default_pii = false;
    // Only what is listed here: no process or machine details, no breadcrumbs.
    options.default_integrations = false;
    options.max_breadcrumbs = 0;
    options.integrations = vec![Arc::new(
        PanicIntegration::new().add_extractor(scrub::panic_event),
    )];
    options.before_send = Some(Arc::new(move |event| scrub::before_send(event, &origin)));
    options.transport = Some(Arc::new(Transport));
    options.transport_channel_capacity = NonZeroUsize::new(QUEUE);
    // A panicking process gives its report this long to leave.
    options.shutdown_timeout = Duration::from_secs(2);
    let client = Arc::new(sentry::Client::from(options));
    // Every thread started from now on reports (the main hub is their
    // parent), and so does this one, whichever it is.
    sentry::Hub::main().bind_client(Some(client.clone()));
    sentry::Hub::current().bind_client(Some(client));
}

/// Posts with rustls over ring and the webpki roots (as webhooks do), and
/// with a time limit so one unanswered post does not stall the rest.
struct Transport;

impl TransportFactory for Transport {
    fn create_transport_with_options(
        &self,
        options: TransportOptions,
    ) -> Arc<dyn sentry::Transport> {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(POST_TIMEOUT))
            .tls_config(
                ureq::tls::TlsConfig::builder()
                    .provider(ureq::tls::TlsProvider::Rustls)
                    .build(),
            )
            .build()
            .new_agent();
        Arc::new(
            UreqHttpTransportOptions::from(options)
                .with_agent(agent)
                .build(),
        )
    }
}

/// The layers the process's subscriber carries: logged errors become events
/// (while reporting is on), with the fields of the request or command span
/// they happened in. Only the spans made below are followed.
pub fn layer<S>() -> impl Layer<S>
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
{
    let ours = |meta: &tracing::Metadata<'_>| meta.is_span() && meta.target() == SPANS;
    let errors = move |meta: &tracing::Metadata<'_>| {
        enabled() && (ours(meta) || (meta.is_event() && *meta.level() == tracing::Level::ERROR))
    };
    SpanLayer::new().with_filter(filter_fn(ours)).and_then(
        ErrorLayer::new()
            .enable_span_attributes()
            .with_filter(filter_fn(errors)),
    )
}

/// A span naming the HTTP request errors inside it happened in, or none
/// when reporting is off. `path` has had its known secrets redacted (the
/// access log's rule); ids and tokens left in it are redacted here.
pub fn request_span(method: &str, path: &str) -> tracing::Span {
    if enabled() {
        tracing::error_span!(target: SPANS, "request", method = %method, path = %redact_path(path))
    } else {
        tracing::Span::none()
    }
}

/// A span naming the socket command errors inside it happened in.
pub fn command_span(kind: &str) -> tracing::Span {
    if enabled() {
        tracing::error_span!(target: SPANS, "command", command = %kind)
    } else {
        tracing::Span::none()
    }
}
