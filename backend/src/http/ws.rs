//! `GET /ws`: upgrades only with a live session cookie and an allowed Origin.

use actix_web::{HttpRequest, HttpResponse, web};
use actix_web_actors::ws;

use super::api::guards::whole_seconds;
use super::api::token_check::{TokenCheck, check_token};
use super::cookies;
use super::return_address::own_origin;
use crate::live::frame_limit;
use crate::live::session::SessionActor;
use crate::security_log;
use crate::state::State;
use paydesk::domain::api_tokens::authenticate::note_use;
use paydesk::store::sessions;

/// Whether the Origin header names this server (or a configured extra origin).
fn origin_allowed(state: &State, req: &HttpRequest, origin: Option<&str>) -> bool {
    let Some(origin) = origin else {
        return false;
    };
    let origin = origin.trim_end_matches('/');
    if state
        .config
        .allowed_origins
        .iter()
        .any(|allowed| allowed.trim_end_matches('/') == origin)
    {
        return true;
    }
    let own = own_origin(state, req).map(|url| url.origin().ascii_serialization());
    own.is_some_and(|own| origin.eq_ignore_ascii_case(&own))
}

pub async fn upgrade(state: State, req: HttpRequest, stream: web::Payload) -> HttpResponse {
    // A merchant's server with an API token: no cookie is involved, so no
    // other site's page can ride it, and servers send no Origin.
    if let Some(secret) = super::api::bearer(&req) {
        return token_upgrade(state, &req, secret.to_string(), stream).await;
    }
    let origin = req.headers().get("origin").and_then(|v| v.to_str().ok());
    if !origin_allowed(&state, &req, origin) {
        // Another site's page opening a socket with the user's cookie.
        let client = cookies::requester(&state, &req).await;
        let detail = format!("socket upgrade from origin {:?}", origin.unwrap_or("none"));
        security_log::refused(&client, "foreign_origin", &detail);
        return HttpResponse::Forbidden().body("origin not allowed");
    }
    let Some(token) = cookies::session_token(&state, &req) else {
        return HttpResponse::Unauthorized().body("sign in first");
    };
    let opening = state.openings.clone().acquire_owned().await;
    let found =
        sessions::find_live_session(&state.db, &token, state.config.session_ttl_seconds).await;
    drop(opening);
    let session = match found {
        Ok(Some(session)) => session,
        Ok(None) => return HttpResponse::Unauthorized().body("sign in first"),
        Err(err) => {
            tracing::error!(error = %err, "session lookup failed");
            return HttpResponse::InternalServerError().finish();
        }
    };
    // The frame limit is enforced at each header, before any payload is buffered.
    let (stream, oversize) = frame_limit::guard(stream, protocol::MAX_FRAME_BYTES);
    let address = super::client::client_address(&req);
    let actor = SessionActor::new(state.clone(), session, address, oversize);
    ws::WsResponseBuilder::new(actor, &req, stream)
        .frame_size(protocol::MAX_FRAME_BYTES)
        .start()
        .unwrap_or_else(HttpResponse::from_error)
}

/// A socket opened with an API token instead of a browser session: the
/// token's merchant and mode, what it grants, closed when it is revoked.
async fn token_upgrade(
    state: State,
    req: &HttpRequest,
    secret: String,
    stream: web::Payload,
) -> HttpResponse {
    let address = super::client::client_address(req);
    let now = paydesk::ids::now_ms();
    let access = match check_token(&state, &secret, &address, "socket").await {
        TokenCheck::Opened(access) => access,
        TokenCheck::Throttled(wait) => {
            return HttpResponse::TooManyRequests()
                .insert_header(("Retry-After", whole_seconds(wait).to_string()))
                .body("too many tokens that were not valid from this address");
        }
        TokenCheck::Refused(_) => return HttpResponse::Unauthorized().body("invalid token"),
        TokenCheck::Failed(err) => {
            tracing::error!(error = %err, "token lookup failed");
            return HttpResponse::InternalServerError().finish();
        }
    };
    if let Err(err) = note_use(&state.db, &access, &address, now).await {
        tracing::warn!(error = %err, "could not note an API token's use");
    }
    let (stream, oversize) = frame_limit::guard(stream, protocol::MAX_FRAME_BYTES);
    let actor = SessionActor::for_token(state.clone(), access, address, oversize);
    ws::WsResponseBuilder::new(actor, req, stream)
        .frame_size(protocol::MAX_FRAME_BYTES)
        .start()
        .unwrap_or_else(HttpResponse::from_error)
}
