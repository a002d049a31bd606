//! What the web app needs to know of the server before anyone signs in:
//! where to report its own errors (the DSN's key is public by design), or
//! `null` when reporting is off, so the app loads no reporting code.

use actix_web::HttpResponse;
use serde_json::json;

use crate::state::State;

pub async fn client_config(state: State) -> HttpResponse {
    let reporting = state
        .config
        .sentry_dsn
        .as_ref()
        .map(|dsn| json!({ "dsn": dsn.as_str() }));
    HttpResponse::Ok()
        .insert_header(("cache-control", "no-store"))
        .json(json!({ "errorReporting": reporting }))
}
