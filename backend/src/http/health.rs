//! Probes for load balancers and orchestrators: unauthenticated, cheap, and
//! saying nothing about the data. `/healthz`: the process answers.
//! `/readyz`: it can serve (its database answers and is fully migrated).

use actix_web::HttpResponse;
use actix_web::http::header;
use serde_json::json;

use crate::state::State;

/// Alive: answered by the server itself, without the database, so a
/// database outage never gets a healthy process restarted.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(json!({ "status": "ok" }))
}

/// Ready, or 503 with the reason, so traffic goes to nodes that can serve
/// while this one waits for its database.
pub async fn readyz(state: State) -> HttpResponse {
    match state.db.readiness().await {
        Ok(()) => HttpResponse::Ok()
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .json(json!({ "status": "ready" })),
        Err(reason) => HttpResponse::ServiceUnavailable()
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .json(json!({
                "status": "not_ready",
                "reason": reason.code(),
                "detail": reason.to_string(),
            })),
    }
}
