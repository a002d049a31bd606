//! The access log: one line per request, with the path as it is safe to
//! keep. Reset, invite and e-mail verification links carry their secret in
//! the path, so does a pay attempt's page (its address alone shows the
//! payer's name and e-mail), and a query string may carry one too; a log is copied to
//! places secrets must not go, so those parts are replaced before anything
//! is written.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Uri;
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::Instrument;

use paydesk::domain::app_routes::secret_route_prefixes;

/// What a secret is replaced with.
pub const REDACTED: &str = "[redacted]";

/// Query parameters whose values are known to hold nothing secret; every
/// other value is redacted.
const PLAIN_QUERY_KEYS: &[&str] = &[
    "lang", "method", "v", "error", "csrf", "reset", "mode", "via",
];

/// The path and query of `uri` with secret parts replaced by `[redacted]`.
pub fn redacted_target(uri: &Uri) -> String {
    let mut target = redacted_path(uri.path());
    if let Some(query) = uri.query() {
        target.push('?');
        target.push_str(&redacted_query(query));
    }
    target
}

/// Server-rendered pages whose last segment is a payer's secret link.
const PAYER_SECRET_PREFIXES: &[&str] = &["/card/"];

pub fn redacted_path(path: &str) -> String {
    if let Some(attempt_page) = redacted_attempt(path) {
        return attempt_page;
    }
    for prefix in PAYER_SECRET_PREFIXES {
        if let Some(rest) = path.strip_prefix(prefix)
            && !rest.is_empty()
            && path != super::pay::card_update::SAVED_PATH
        {
            return format!("{prefix}{REDACTED}");
        }
    }
    for prefix in secret_route_prefixes() {
        if let Some(rest) = path.strip_prefix(prefix)
            && !rest.is_empty()
        {
            return format!("{prefix}{REDACTED}");
        }
    }
    path.to_string()
}

/// `/pay/{page}/attempts/{attempt}` with the attempt replaced: the page id
/// is public (it is the link the merchant shares), the attempt's is not.
fn redacted_attempt(path: &str) -> Option<String> {
    let rest = path.strip_prefix("/pay/")?;
    let (page, rest) = rest.split_once('/')?;
    let attempt = rest.strip_prefix("attempts/")?;
    (!attempt.is_empty()).then(|| format!("/pay/{page}/attempts/{REDACTED}"))
}

fn redacted_query(query: &str) -> String {
    query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, _)) if PLAIN_QUERY_KEYS.contains(&key) => pair.to_string(),
            Some((key, _)) => format!("{key}={REDACTED}"),
            None if PLAIN_QUERY_KEYS.contains(&pair) => pair.to_string(),
            None => REDACTED.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The header that carries a request's id on every answer.
pub const REQUEST_ID_HEADER: &str = "request-id";

tokio::task_local! {
    /// The id of the request being answered, for error bodies to quote.
    static REQUEST_ID: String;
}

/// The id of the request this code is answering, if it runs inside one.
pub fn request_id() -> Option<String> {
    REQUEST_ID.try_with(String::clone).ok()
}

/// Gives the request an id (`req_...`, made here: a client's own header is
/// not trusted to be unique), answers it in `Request-Id` and logs
/// `METHOD target VERSION status duration request=id` once the handler has
/// answered. Socket upgrades are left out of the log: each tab opens one,
/// and what happens on them is not a request.
pub async fn log_request(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    // Errors logged while the request is handled are reported with its
    // method and redacted path (when error reporting is on).
    let span =
        crate::error_reporting::request_span(req.method().as_str(), &redacted_path(req.path()));
    let id = paydesk::ids::new_id("req");
    let with_id = |mut result: Result<ServiceResponse<_>, actix_web::Error>| {
        if let (Ok(response), Ok(value)) = (&mut result, HeaderValue::from_str(&id)) {
            let name = HeaderName::from_static(REQUEST_ID_HEADER);
            response.headers_mut().insert(name, value);
        }
        result
    };
    if req.path() == "/ws" {
        let result = REQUEST_ID
            .scope(id.clone(), next.call(req).instrument(span))
            .await;
        return with_id(result);
    }
    let started = Instant::now();
    let line = format!(
        "{} {} {:?}",
        req.method(),
        redacted_target(req.uri()),
        req.version()
    );
    let result = REQUEST_ID
        .scope(id.clone(), next.call(req).instrument(span))
        .await;
    let status = match &result {
        Ok(response) => response.status(),
        Err(err) => err.as_response_error().status_code(),
    };
    tracing::info!(
        target: "access",
        "{line} {} {}ms request={id}",
        status.as_u16(),
        started.elapsed().as_millis()
    );
    with_id(result)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn redacted(target: &str) -> String {
        redacted_target(&target.parse::<Uri>().unwrap())
    }

    #[test]
    fn secret_links_lose_their_token() {
        assert_eq!(redacted("/auth/reset/abc123"), "/auth/reset/[redacted]");
        assert_eq!(
            redacted("/account/teams/invite/tok-1/x"),
            "/account/teams/invite/[redacted]"
        );
        assert_eq!(
            redacted("/account/teams/email/verify/tok"),
            "/account/teams/email/verify/[redacted]"
        );
        assert_eq!(redacted("/auth/reset/"), "/auth/reset/");
        assert_eq!(redacted("/customers/cus_1"), "/customers/cus_1");
    }

    #[test]
    fn a_pay_attempts_page_keeps_its_page_and_loses_its_attempt() {
        assert_eq!(
            redacted("/pay/ppg_1/attempts/att_2"),
            "/pay/ppg_1/attempts/[redacted]"
        );
        assert_eq!(redacted("/pay/ppg_1"), "/pay/ppg_1");
        assert_eq!(redacted("/pay/ppg_1/attempts/"), "/pay/ppg_1/attempts/");
    }

    #[test]
    fn a_payers_update_card_link_loses_its_token() {
        assert_eq!(
            redacted("/card/AbC-123_xyz?lang=afr"),
            "/card/[redacted]?lang=afr"
        );
        assert_eq!(redacted("/card/saved?lang=en"), "/card/saved?lang=en");
        assert_eq!(redacted("/cards"), "/cards");
    }

    #[test]
    fn query_values_are_kept_only_when_known_to_be_plain() {
        assert_eq!(
            redacted("/pay/ppg_1?method=card&lang=afr"),
            "/pay/ppg_1?method=card&lang=afr"
        );
        assert_eq!(
            redacted("/x?token=s3cret&lang=en&callbackUrl=%2Fa&bare"),
            "/x?token=[redacted]&lang=en&callbackUrl=[redacted]&[redacted]"
        );
    }
}
