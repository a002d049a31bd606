//! `GET /ws`: upgrades only with a live session cookie and an allowed Origin.

use actix_web::{HttpRequest, HttpResponse, web};
use actix_web_actors::ws;

use super::cookies;
use crate::live::session::SessionActor;
use crate::state::State;
use paydesk::store::sessions;

/// Whether the Origin header names this server (or a configured extra origin).
fn origin_allowed(state: &State, req: &HttpRequest) -> bool {
    let Some(origin) = req.headers().get("origin").and_then(|v| v.to_str().ok()) else {
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
    let own = match &state.config.public_url {
        Some(public) => public.trim_end_matches('/').to_string(),
        None => {
            let info = req.connection_info();
            format!("{}://{}", info.scheme(), info.host())
        }
    };
    origin.eq_ignore_ascii_case(&own)
}

pub async fn upgrade(state: State, req: HttpRequest, stream: web::Payload) -> HttpResponse {
    if !origin_allowed(&state, &req) {
        return HttpResponse::Forbidden().body("origin not allowed");
    }
    let Some(token) = cookies::session_token(&state, &req) else {
        return HttpResponse::Unauthorized().body("sign in first");
    };
    let session = match sessions::find_live_session(
        &state.db,
        &token,
        state.config.session_ttl_seconds,
    )
    .await
    {
        Ok(Some(session)) => session,
        Ok(None) => return HttpResponse::Unauthorized().body("sign in first"),
        Err(err) => {
            tracing::error!(error = %err, "session lookup failed");
            return HttpResponse::InternalServerError().finish();
        }
    };
    let actor = SessionActor::new(state.clone(), session, super::auth::client_address(&req));
    ws::WsResponseBuilder::new(actor, &req, stream)
        .frame_size(protocol::MAX_FRAME_BYTES)
        .start()
        .unwrap_or_else(HttpResponse::from_error)
}
