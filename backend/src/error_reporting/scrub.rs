//! What an event may carry when it leaves the server: its level, message,
//! the error's text, where in the code, and where in the product (the
//! request's method and redacted path or the command's kind). Everything
//! else an event picks up on its way (headers, cookies, query strings,
//! bodies, users, breadcrumbs, other log fields, span data) is dropped by
//! [`before_send`], which builds the event anew from what is allowed.

use std::panic::PanicHookInfo;

use sentry::integrations::panic::PanicIntegration;
use sentry::protocol::{Context, Event, Exception, Map, Mechanism, Request, Value};
use sentry::{Hub, TransactionOrSpan};

/// Where the tracing layer puts an event's fields and those of the spans it
/// happened in (span fields as `{span}:{field}`).
const FIELDS: &str = "Rust Tracing Fields";

/// Path segments that may be secrets (pay page, mandate and card links,
/// reset and verification tokens) or record ids are replaced: anything of
/// 16 characters or more with a digit in it.
pub fn redact_path(path: &str) -> String {
    path.split('/')
        .map(|segment| {
            if segment.len() >= 16 && segment.chars().any(|c| c.is_ascii_digit()) {
                "[redacted]"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Where an error happened, read only from the fields our own spans carry.
#[derive(Debug, Default, PartialEq, Eq)]
struct Place {
    method: Option<String>,
    path: Option<String>,
    command: Option<String>,
}

impl Place {
    fn note(&mut self, field: &str, value: &Value) {
        let Value::String(text) = value else {
            return;
        };
        let slot = match field {
            "method" => &mut self.method,
            "path" => &mut self.path,
            "command" => &mut self.command,
            _ => return,
        };
        if slot.is_none() {
            *slot = Some(text.clone());
        }
    }
}

/// The event a panic becomes: fatal, with the place in the code it
/// happened at and the request or command the thread was working on.
pub(super) fn panic_event(info: &PanicHookInfo<'_>) -> Option<Event<'static>> {
    let mut event = PanicIntegration::new().event_from_panic_info(info);
    event.culprit = info
        .location()
        .map(|at| format!("{}:{}", at.file(), at.line()));
    // The span the panicking thread is in, as the tracing layer names it.
    let span = Hub::current().configure_scope(|scope| scope.get_span());
    let data: Map<String, Value> = match &span {
        Some(TransactionOrSpan::Transaction(transaction)) => transaction
            .data()
            .iter()
            .map(|(key, value)| (format!("span:{key}"), value.clone()))
            .collect(),
        Some(TransactionOrSpan::Span(span)) => span
            .data()
            .iter()
            .map(|(key, value)| (format!("span:{key}"), value.clone()))
            .collect(),
        None => Map::new(),
    };
    event.contexts.insert(FIELDS.into(), Context::Other(data));
    Some(event)
}

/// Builds the event that is sent from only what may be sent. `origin` is the
/// server's public origin, so the request's URL is absolute as the format
/// wants it; it never has a query string.
pub(super) fn before_send(mut event: Event<'static>, origin: &str) -> Option<Event<'static>> {
    let fields = match event.contexts.remove(FIELDS) {
        Some(Context::Other(fields)) => fields,
        _ => Map::new(),
    };
    let mut place = Place::default();
    let mut error = None;
    for (key, value) in &fields {
        match key.split_once(':') {
            // A field of a span the event happened in.
            Some((_, field)) => place.note(field, value),
            // The event's own fields: only its error's text is kept.
            None if key == "error" => error = value.as_str().map(str::to_string),
            None => {}
        }
    }
    let mut exception: Vec<Exception> = event
        .exception
        .iter()
        .map(|found| Exception {
            ty: found.ty.clone(),
            value: found.value.clone(),
            module: found.module.clone(),
            stacktrace: found.stacktrace.clone(),
            mechanism: found.mechanism.as_ref().map(|m| Mechanism {
                ty: m.ty.clone(),
                handled: m.handled,
                synthetic: m.synthetic,
                ..Default::default()
            }),
            ..Default::default()
        })
        .collect();
    if exception.is_empty() {
        exception.push(Exception {
            ty: "internal error".into(),
            value: error.or_else(|| event.message.clone()),
            ..Default::default()
        });
    }
    let mut tags = Map::new();
    if let Some(command) = &place.command {
        tags.insert("command".to_string(), command.clone());
    }
    if let Some(path) = &place.path {
        tags.insert("path".to_string(), path.clone());
    }
    let request = (place.method.is_some() || place.path.is_some()).then(|| Request {
        method: place.method.clone(),
        url: place
            .path
            .as_ref()
            .and_then(|path| url::Url::parse(&format!("{origin}{path}")).ok())
            .map(|mut url| {
                url.set_query(None);
                url
            }),
        ..Default::default()
    });
    let culprit = event.culprit.take().or_else(|| event.logger.clone());
    Some(Event {
        event_id: event.event_id,
        level: event.level,
        timestamp: event.timestamp,
        platform: event.platform,
        release: event.release,
        environment: event.environment,
        sdk: event.sdk,
        logger: event.logger,
        message: event.message,
        culprit,
        exception: exception.into(),
        tags,
        request,
        ..Default::default()
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_ids_leave_paths() {
        assert_eq!(
            redact_path("/pay/pp_0193abcdef12345678/attempts/att_1"),
            "/pay/[redacted]/attempts/att_1"
        );
        assert_eq!(
            redact_path("/api/auth/reset-password"),
            "/api/auth/reset-password"
        );
    }

    /// Whatever else an event picked up is not sent: other log fields, span
    /// data beyond the place, headers, cookies, query strings, bodies, users,
    /// breadcrumbs, extra data.
    #[test]
    fn only_the_allowed_parts_are_sent() {
        let mut fields = Map::new();
        for (key, value) in [
            ("request:method", "POST"),
            ("request:path", "/api/auth/signin/credentials"),
            ("request:cookie", "session=planted"),
            ("error", "relation customers does not exist"),
            ("password", "planted-password"),
            ("card_number", "4111111111111111"),
        ] {
            fields.insert(key.to_string(), Value::from(value));
        }
        let mut event = Event {
            message: Some("internal error".into()),
            logger: Some("backend::http".into()),
            user: Some(sentry::User {
                email: Some("planted@example.co.za".into()),
                ..Default::default()
            }),
            request: Some(Request {
                query_string: Some("token=planted".into()),
                cookies: Some("session=planted".into()),
                data: Some("planted-password".into()),
                headers: [("authorization".to_string(), "planted".to_string())].into(),
                ..Default::default()
            }),
            breadcrumbs: vec![sentry::Breadcrumb {
                message: Some("planted".into()),
                ..Default::default()
            }]
            .into(),
            extra: [("planted".to_string(), Value::from("planted"))].into(),
            tags: [("planted".to_string(), "planted".to_string())].into(),
            ..Default::default()
        };
        event.contexts.insert(FIELDS.into(), Context::Other(fields));
        let sent = before_send(event, "https://pay.example.co.za").unwrap();
        let text = serde_json::to_string(&sent).unwrap();
        assert!(!text.contains("planted"), "{text}");
        // The whole number: its first digits alone may turn up in the
        // event's random id or its timestamp.
        assert!(!text.contains("4111111111111111"), "{text}");
        let request = sent.request.unwrap();
        assert_eq!(request.method.as_deref(), Some("POST"));
        assert_eq!(
            request.url.unwrap().as_str(),
            "https://pay.example.co.za/api/auth/signin/credentials"
        );
        assert_eq!(sent.tags["path"], "/api/auth/signin/credentials");
        assert_eq!(
            sent.exception.values[0].value.as_deref(),
            Some("relation customers does not exist")
        );
        assert_eq!(sent.culprit.as_deref(), Some("backend::http"));
    }
}
