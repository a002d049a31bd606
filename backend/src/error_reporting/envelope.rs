//! Sentry-compatible envelopes: the DSN, the event an error becomes, and the
//! redaction of what it carries. Only what is listed here leaves the server:
//! the message, the error's text, the request's method and redacted path or
//! the command's kind. Never a query string, a body, a header or a cookie.

use serde_json::{Value, json};

/// Where reports go: `{scheme}://{public_key}@{host}[:port]/[path/]{project}`.
/// The public key is public by design (browsers send it too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dsn {
    raw: String,
    public_key: String,
    envelope_url: String,
}

impl Dsn {
    pub fn parse(value: &str) -> Result<Dsn, String> {
        let bad = || "SENTRY_DSN: not a DSN as https://KEY@HOST/PROJECT".to_string();
        let url = url::Url::parse(value.trim()).map_err(|_| bad())?;
        if !matches!(url.scheme(), "http" | "https") || url.username().is_empty() {
            return Err(bad());
        }
        let host = url.host_str().ok_or_else(bad)?;
        let path = url.path().trim_end_matches('/');
        let (prefix, project) = path.rsplit_once('/').ok_or_else(bad)?;
        if project.is_empty() || !project.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(bad());
        }
        let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
        Ok(Dsn {
            raw: value.trim().to_string(),
            public_key: url.username().to_string(),
            envelope_url: format!(
                "{}://{host}{port}{prefix}/api/{project}/envelope/",
                url.scheme()
            ),
        })
    }

    /// The DSN as configured, for the web app's SDK.
    pub fn as_str(&self) -> &str {
        &self.raw
    }

    pub fn envelope_url(&self) -> &str {
        &self.envelope_url
    }

    /// The origin reports are posted to, for the web app's content policy.
    pub fn origin(&self) -> String {
        url::Url::parse(&self.envelope_url)
            .map(|u| u.origin().ascii_serialization())
            .unwrap_or_default()
    }

    pub fn auth_header(&self) -> String {
        format!(
            "Sentry sentry_version=7, sentry_client=paydesk/{}, sentry_key={}",
            env!("CARGO_PKG_VERSION"),
            self.public_key
        )
    }
}

/// Where an error happened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Context {
    pub method: Option<String>,
    /// Already redacted (see [`redact_path`]).
    pub path: Option<String>,
    pub command: Option<String>,
}

/// One error to report.
pub struct Report {
    /// "error" or "fatal" (a panic).
    pub level: &'static str,
    /// What was being done, as the log line says it.
    pub message: String,
    /// The error's own text, when there was one.
    pub error: Option<String>,
    /// Where in the code: the log target or the panic's location.
    pub culprit: String,
    pub context: Context,
}

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

/// The envelope of one event, ready to post.
pub fn envelope(dsn: &Dsn, report: &Report, event_id: &str, timestamp: f64) -> Vec<u8> {
    let mut event = json!({
        "event_id": event_id,
        "timestamp": timestamp,
        "platform": "other",
        "level": report.level,
        "logger": report.culprit,
        "culprit": report.culprit,
        "release": concat!("paydesk@", env!("CARGO_PKG_VERSION")),
        "message": { "formatted": report.message },
        "exception": { "values": [{
            "type": if report.level == "fatal" { "panic" } else { "internal error" },
            "value": report.error.as_deref().unwrap_or(&report.message),
        }]},
    });
    let mut tags = serde_json::Map::new();
    if let Some(command) = &report.context.command {
        tags.insert("command".into(), Value::from(command.as_str()));
    }
    if report.context.path.is_some() || report.context.method.is_some() {
        event["request"] = json!({
            "method": report.context.method,
            "url": report.context.path,
        });
        if let Some(path) = &report.context.path {
            tags.insert("path".into(), Value::from(path.as_str()));
        }
    }
    event["tags"] = Value::Object(tags);
    let body = event.to_string();
    let header = json!({ "event_id": event_id, "dsn": dsn.as_str() });
    let item = json!({ "type": "event", "length": body.len() });
    format!("{header}\n{item}\n{body}\n").into_bytes()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn dsns_name_their_envelope_endpoint() {
        let dsn = Dsn::parse("https://abc123@o1.ingest.example.com/42").unwrap();
        assert_eq!(
            dsn.envelope_url(),
            "https://o1.ingest.example.com/api/42/envelope/"
        );
        assert!(dsn.auth_header().contains("sentry_key=abc123"));
        let local = Dsn::parse("http://key@127.0.0.1:9000/sub/7").unwrap();
        assert_eq!(
            local.envelope_url(),
            "http://127.0.0.1:9000/sub/api/7/envelope/"
        );
        assert_eq!(local.origin(), "http://127.0.0.1:9000");
        assert!(Dsn::parse("https://o1.example.com/42").is_err());
        assert!(Dsn::parse("ftp://k@o1.example.com/42").is_err());
        assert!(Dsn::parse("not a dsn").is_err());
    }

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
}
