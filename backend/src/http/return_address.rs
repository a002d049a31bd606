//! Where a client asks to be sent back to (`callbackUrl` after signing in
//! or out): only ever a path on our own origin. Every HTTP place that takes
//! a return address goes through `return_path`; the rule itself is
//! `paydesk::domain::web_addresses::same_origin_path`.

use actix_web::HttpRequest;
use url::Url;

use crate::state::AppState;
use paydesk::domain::web_addresses::same_origin_path;

/// This server's origin: `PUBLIC_URL`, or (without one) the scheme and host
/// the request came in on.
pub fn own_origin(state: &AppState, req: &HttpRequest) -> Option<Url> {
    let origin = match &state.config.public_url {
        Some(public) => public.clone(),
        None => {
            let info = req.connection_info();
            format!("{}://{}", info.scheme(), info.host())
        }
    };
    let url = Url::parse(&origin).ok()?;
    // Only the origin counts; a path in PUBLIC_URL is no base for paths.
    Url::parse(&url.origin().ascii_serialization()).ok()
}

/// The path `requested` leads to on our origin, or `fallback` when it is
/// missing or would lead anywhere else.
pub fn return_path(
    state: &AppState,
    req: &HttpRequest,
    requested: Option<&str>,
    fallback: &str,
) -> String {
    requested
        .filter(|r| !r.trim().is_empty())
        .zip(own_origin(state, req))
        .and_then(|(requested, origin)| same_origin_path(&origin, requested))
        .unwrap_or_else(|| fallback.to_string())
}
