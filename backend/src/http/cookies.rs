//! The cookies this server sets: the session and the CSRF double-submit cookie.

use actix_web::HttpRequest;
use actix_web::cookie::time::Duration;
use actix_web::cookie::{Cookie, SameSite};

use crate::state::AppState;
use paydesk::auth::csrf;

pub const SESSION: &str = "session-token";

fn base<'a>(state: &AppState, name: &'a str, value: String) -> Cookie<'a> {
    Cookie::build(name, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.config.secure_cookies())
        .finish()
}

pub fn session(state: &AppState, token: String) -> Cookie<'static> {
    let mut cookie = base(state, SESSION, token);
    cookie.set_max_age(Duration::seconds(state.config.session_ttl_seconds));
    cookie
}

pub fn expired_session(state: &AppState) -> Cookie<'static> {
    let mut cookie = base(state, SESSION, String::new());
    cookie.set_max_age(Duration::ZERO);
    cookie
}

pub fn csrf(state: &AppState, value: String) -> Cookie<'static> {
    base(state, csrf::COOKIE, value)
}

pub fn session_token(req: &HttpRequest) -> Option<String> {
    req.cookie(SESSION)
        .map(|c| c.value().to_string())
        .filter(|v| !v.is_empty())
}

/// The CSRF token for this browser: the one its cookie vouches for, or a new
/// one with the cookie to set.
pub fn csrf_token(state: &AppState, req: &HttpRequest) -> (String, Option<Cookie<'static>>) {
    if let Some(token) = req
        .cookie(csrf::COOKIE)
        .and_then(|c| state.csrf.token_from_cookie(c.value()))
    {
        return (token, None);
    }
    let (token, value) = state.csrf.issue();
    (token, Some(csrf(state, value)))
}

/// Whether the request repeats its cookie's CSRF token, in the form field or
/// in the configured header.
pub fn csrf_ok(state: &AppState, req: &HttpRequest, form_token: Option<&str>) -> bool {
    let cookie = req.cookie(csrf::COOKIE);
    let header = req
        .headers()
        .get(state.config.csrf_header.as_str())
        .and_then(|v| v.to_str().ok());
    let submitted = form_token.filter(|t| !t.is_empty()).or(header);
    state
        .csrf
        .verify(cookie.as_ref().map(|c| c.value()), submitted)
}
