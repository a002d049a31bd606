//! The cookies this server sets: the session, the CSRF double-submit cookie
//! and the pre-session that CSRF tokens are bound to.
//!
//! Under https their names carry the `__Host-` prefix: a browser then keeps
//! them only when set Secure, for `/`, with no Domain, by this very host, so
//! a sibling subdomain cannot plant or overwrite them. Under plain http (on
//! a developer's machine, in tests) the prefix cannot be used, since it
//! requires Secure, and the plain names are used. Each is read under the
//! one name it is set under.

use actix_web::HttpRequest;
use actix_web::cookie::time::Duration;
use actix_web::cookie::{Cookie, SameSite};

use super::access_log::redacted_target;
use super::client::client_address;
use crate::security_log::{self, Client};
use crate::state::AppState;
use paydesk::auth::csrf;
use paydesk::store::sessions;
use protocol::Language;

pub const SESSION: &str = "session-token";
/// What a browser keeps only from a Secure, host-only, `Path=/` cookie.
const HOST_PREFIX: &str = "__Host-";
/// The interface language's cookie; the web app and the pay pages share it.
const LOCALE: &str = super::pay::words::LOCALE_COOKIE;

/// A cookie's name as this server sets and reads it.
fn name(state: &AppState, plain: &str) -> String {
    if state.config.secure_cookies() {
        format!("{HOST_PREFIX}{plain}")
    } else {
        plain.to_string()
    }
}

fn base(state: &AppState, plain: &str, value: String) -> Cookie<'static> {
    // Path `/` and no Domain: what the `__Host-` prefix requires.
    Cookie::build(name(state, plain), value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.config.secure_cookies())
        .finish()
}

fn read(state: &AppState, req: &HttpRequest, plain: &str) -> Option<String> {
    req.cookie(&name(state, plain))
        .map(|c| c.value().to_string())
        .filter(|v| !v.is_empty())
}

pub fn session(state: &AppState, token: String) -> Cookie<'static> {
    let mut cookie = base(state, SESSION, token);
    cookie.set_max_age(Duration::seconds(state.config.session_ttl_seconds));
    cookie
}

/// The interface language, which the web app reads (so not HttpOnly) and
/// the server's pages and mails follow.
pub fn locale(state: &AppState, language: Language) -> Cookie<'static> {
    Cookie::build(LOCALE, language.as_str())
        .path("/")
        .same_site(SameSite::Lax)
        .secure(state.config.secure_cookies())
        .max_age(Duration::days(365))
        .finish()
}

/// Whether this browser chose an interface language.
pub fn has_locale(req: &HttpRequest) -> bool {
    req.cookie(LOCALE).is_some()
}

pub fn expired_session(state: &AppState) -> Cookie<'static> {
    let mut cookie = base(state, SESSION, String::new());
    cookie.set_max_age(Duration::ZERO);
    cookie
}

pub fn csrf(state: &AppState, value: String) -> Cookie<'static> {
    base(state, csrf::COOKIE, value)
}

/// Holds a followed sign-in link (its token, address and landing page)
/// while a two-factor user gives their code: HttpOnly, so the page never
/// sees the token, and sent only to the link's callback. Not `__Host-`,
/// which needs `Path=/`; `__Secure-` under https.
const PENDING_LINK: &str = "email-sign-in";

fn pending_link_name(state: &AppState) -> String {
    if state.config.secure_cookies() {
        format!("__Secure-{PENDING_LINK}")
    } else {
        PENDING_LINK.to_string()
    }
}

pub fn pending_link(state: &AppState, value: String, max_age: Duration) -> Cookie<'static> {
    Cookie::build(pending_link_name(state), value)
        .path(state.config.auth_path("/callback/email"))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.config.secure_cookies())
        .max_age(max_age)
        .finish()
}

pub fn pending_link_value(state: &AppState, req: &HttpRequest) -> Option<String> {
    req.cookie(&pending_link_name(state))
        .map(|c| c.value().to_string())
        .filter(|v| !v.is_empty())
}

pub fn session_token(state: &AppState, req: &HttpRequest) -> Option<String> {
    read(state, req, SESSION)
}

/// This browser's pre-session id, as its cookie holds it: random, made by
/// this server (`new_secret`), so anything else is no pre-session.
fn pre_session(state: &AppState, req: &HttpRequest) -> Option<String> {
    read(state, req, csrf::PRE_SESSION_COOKIE).filter(|value| {
        value.len() == 43
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

/// The CSRF token for this browser: the one its cookie vouches for, or a new
/// one with the cookies to set (the CSRF cookie first, then the
/// pre-session's when the browser had none).
pub fn csrf_token(state: &AppState, req: &HttpRequest) -> (String, Vec<Cookie<'static>>) {
    let (browser, new_browser) = match pre_session(state, req) {
        Some(browser) => (browser, None),
        None => {
            let browser = paydesk::ids::new_secret();
            let cookie = base(state, csrf::PRE_SESSION_COOKIE, browser.clone());
            (browser, Some(cookie))
        }
    };
    let minted = read(state, req, csrf::COOKIE)
        .and_then(|value| state.csrf.token_from_cookie(&value, &browser));
    if let Some(token) = minted {
        return (token, Vec::new());
    }
    let (token, value) = state.csrf.issue(&browser);
    let mut cookies = vec![csrf(state, value)];
    cookies.extend(new_browser);
    (token, cookies)
}

/// Whether the request repeats its cookie's CSRF token, in the form field or
/// in the configured header. A refusal is a forged or stale form: it is
/// logged as a security event (who, from where, which route; never a token).
pub async fn csrf_ok(state: &AppState, req: &HttpRequest, form_token: Option<&str>) -> bool {
    let cookie = read(state, req, csrf::COOKIE);
    let header = req
        .headers()
        .get(state.config.csrf_header.as_str())
        .and_then(|v| v.to_str().ok());
    let submitted = form_token.filter(|t| !t.is_empty()).or(header);
    let browser = pre_session(state, req).unwrap_or_default();
    if state.csrf.verify(cookie.as_deref(), submitted, &browser) {
        return true;
    }
    let why = if submitted.is_none() {
        "missing"
    } else if browser.is_empty() {
        "sent by a browser with no pre-session"
    } else if cookie
        .as_deref()
        .and_then(|value| state.csrf.token_from_cookie(value, &browser))
        .is_none()
    {
        // Minted for another browser (planted), forged, or from before.
        "not minted for this browser"
    } else {
        "does not match the cookie"
    };
    let client = requester(state, req).await;
    let detail = format!(
        "{} {}: CSRF token {why}",
        req.method(),
        redacted_target(req.uri()),
    );
    security_log::refused(&client, "csrf", &detail);
    false
}

/// Who sent a request, for a security log line: the user of its session
/// cookie (if live; the session is not touched) and its address.
pub async fn requester(state: &AppState, req: &HttpRequest) -> Client {
    let user_id = match session_token(state, req) {
        Some(token) => sessions::user_of_live_session(&state.db, &token)
            .await
            .ok()
            .flatten(),
        None => None,
    };
    Client {
        user_id,
        address: client_address(req),
    }
}
