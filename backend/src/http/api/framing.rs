//! What the machine API checks of a request before its token: the method
//! (HEAD reads as GET; a path served under other methods is 405 with
//! `Allow`), the body's size (413 past the limit, read here rather than by
//! the framework's extractor, whose refusal is plain text) and, for a JSON
//! body, its `Content-Type` (415). Every refusal is the documented JSON
//! error.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use futures_util::StreamExt;
use protocol::{ErrorCode, Language};

use super::endpoints::{self, Body, Endpoint, Method};
use super::reply;

/// The largest request body the API reads: an upload's piece is well under
/// it, and a JSON body of any command far under.
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// An endpoint and the values of its path parameters.
pub type Found = (&'static Endpoint, Vec<(&'static str, String)>);

const METHODS: [Method; 4] = [Method::Get, Method::Post, Method::Put, Method::Delete];

fn method_of(req: &HttpRequest) -> Option<Method> {
    match req.method().as_str() {
        // The server sends HEAD's headers without the body.
        "GET" | "HEAD" => Some(Method::Get),
        "POST" => Some(Method::Post),
        "PUT" => Some(Method::Put),
        "DELETE" => Some(Method::Delete),
        _ => None,
    }
}

/// The endpoint the request names, and its path parameters; or the answer:
/// 404 for a path the API does not serve, 405 (with `Allow`) for one it
/// serves under other methods.
pub fn endpoint_of(
    req: &HttpRequest,
    path: &str,
    language: Language,
) -> Result<Found, Box<HttpResponse>> {
    if let Some(found) = method_of(req).and_then(|m| endpoints::find(m, path)) {
        return Ok(found);
    }
    // Where templates overlap (`/imports/uploads` and `/imports/{importId}`)
    // the path is the one with the fewest parameters: its methods only.
    let matched: Vec<(Method, usize)> = METHODS
        .iter()
        .filter_map(|m| endpoints::find(*m, path).map(|(_, params)| (*m, params.len())))
        .collect();
    let fewest = matched.iter().map(|(_, n)| *n).min().unwrap_or_default();
    let allowed: Vec<&str> = matched
        .iter()
        .filter(|(_, n)| *n == fewest)
        .flat_map(|(m, _)| match m {
            Method::Get => vec!["GET", "HEAD"],
            Method::Post => vec!["POST"],
            Method::Put => vec!["PUT"],
            Method::Delete => vec!["DELETE"],
        })
        .collect();
    if allowed.is_empty() {
        return Err(Box::new(reply::code(language, ErrorCode::NotFound)));
    }
    let mut response = reply::code(language, ErrorCode::MethodNotAllowed);
    if let Ok(value) = HeaderValue::from_str(&allowed.join(", ")) {
        response.headers_mut().insert(header::ALLOW, value);
    }
    Err(Box::new(response))
}

/// The request's body, up to `MAX_BODY_BYTES`; past it, 413.
pub async fn body_of(
    req: &HttpRequest,
    mut payload: web::Payload,
    language: Language,
) -> Result<web::Bytes, HttpResponse> {
    let too_large = || reply::code(language, ErrorCode::PayloadTooLarge);
    // A declared length past the limit is refused before a byte is read.
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES) {
        return Err(too_large());
    }
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let Ok(chunk) = chunk else {
            return Err(reply::code(language, ErrorCode::InvalidInput));
        };
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body.freeze())
}

/// A JSON body must say it is JSON: a body sent as text or a form is not
/// read as one (415).
pub fn content_type_ok(
    req: &HttpRequest,
    endpoint: &Endpoint,
    body: &[u8],
    language: Language,
) -> Result<(), Box<HttpResponse>> {
    let json_body = matches!(endpoint.body, Body::Wrap(..) | Body::Fields(_));
    if !json_body || body.is_empty() {
        return Ok(());
    }
    let media = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default();
    if media == "application/json" || media.ends_with("+json") {
        Ok(())
    } else {
        Err(Box::new(reply::code(
            language,
            ErrorCode::UnsupportedMediaType,
        )))
    }
}
